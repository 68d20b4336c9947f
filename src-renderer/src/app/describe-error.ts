import type { BridgeError } from '../../../src-shared/ipc';
import { NOT_CONFIRMED_CODE } from '../../../src-shared/ipc/settings';

/** What the user reads when a call fails: the service's words where they help, ours where they don't. */
export function describeError(
  error: Readonly<BridgeError>,
  context?: 'delete' | 'update' | 'connect',
): string {
  if (error.kind === 'api') {
    if (error.status === 409 && context === 'delete') {
      return 'This post can no longer be deleted: only drafts and scheduled, retrying or failed posts can be. It has already gone out (or is going out) to its platform.';
    }
    if (error.status === 409) return `Conflict: ${error.message}`;
    if (error.status === 401) {
      return context === 'connect'
        ? 'The service rejected this API key: it is missing, wrong, expired or revoked. Create a new one in the dashboard.'
        : 'The service no longer accepts the stored API key (expired or revoked). Reconnect with a new key.';
    }
    if (error.status === 404) return `Not found: ${error.message}`;
    if (error.status === 429) return `Limit reached: ${error.message}`;
    if (error.status === 400 && context === 'update')
      return `The service refused this change: ${error.message}`;
    return error.message;
  }
  switch (error.kind) {
    case 'network':
      if (error.code === 'OUTBOX_QUEUED')
        return 'Saved on this computer; it will be sent as soon as the service answers.';
      return `Postdesk could not reach the service. ${error.message}`;
    case 'not_connected':
      return 'Not connected to a service yet. Connect, or try offline.';
    case 'invalid_input':
      return error.issues && error.issues.length > 0
        ? error.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')
        : error.message;
    case 'unavailable':
      return `Not available here: ${error.message}`;
    case 'forbidden':
      // A change to what Postdesk runs that the user did not confirm: main says where to confirm it.
      if (error.code === NOT_CONFIRMED_CODE) return error.message;
      return 'This window is not allowed to talk to Postdesk.';
    default:
      return error.message;
  }
}

/** Field-level messages of an `invalid_input` or a post-creation 400, keyed by the field's path. */
export function issuesByField(error: Readonly<BridgeError> | null): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const issue of error?.issues ?? []) out[issue.path] ??= issue.message;
  return out;
}
