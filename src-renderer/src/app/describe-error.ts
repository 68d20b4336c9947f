import type { BridgeError } from '../../../src-shared/ipc';
import { issuesText } from '../../../src-shared/ipc/field-labels';
import { NOT_CONFIRMED_CODE } from '../../../src-shared/ipc/settings';

/** Where the failed call was made, when that changes what is worth saying. */
export type ErrorContext = 'delete' | 'update' | 'connect';

/** The service's own sentence, without a code or a trailing full stop, to quote inside ours. */
const words = (message: string): string => message.trim().replace(/\.$/, '');

/**
 * What the user reads when a call fails: our sentence for each kind of failure, the service's words where
 * they help (a refusal explains itself), and fields named as a person would, never by their path.
 * main writes its messages for people already (src-main/core/bridge/bridge-fault.ts); this adds what the
 * screen knows (what was being done) and turns the service's statuses into what they mean.
 */
export function describeError(error: Readonly<BridgeError>, context?: ErrorContext): string {
  if (error.kind === 'api') {
    const status = error.status ?? 0;
    if (status === 409 && context === 'delete') {
      return 'This post can no longer be deleted: only drafts and scheduled, retrying or failed posts can be. It has already gone out (or is going out) to its platform.';
    }
    if (status === 401) {
      return context === 'connect'
        ? 'The service rejected this API key: it is missing, wrong, expired or revoked. Create a new one in the dashboard.'
        : 'The service no longer accepts the stored API key (expired or revoked). Connect again with a new key.';
    }
    if (status === 403) return `The service does not allow this: ${words(error.message)}.`;
    if (status === 404) return `The service no longer has this: ${words(error.message)}.`;
    if (status === 409) return `The service refused this change: ${words(error.message)}.`;
    if (status === 429)
      return error.code === 'MEDIA_STORAGE_QUOTA_EXCEEDED'
        ? `Your media storage is full: ${words(error.message)}.`
        : 'The service is busy and asked Postdesk to slow down. Try again in a minute.';
    if (status >= 500) return 'The service had a problem and could not answer. Try again in a moment.';
    if (error.issues && error.issues.length > 0) {
      return `The service refused this: ${issuesText(error.issues)}`;
    }
    if (status === 400 && context === 'update')
      return `The service refused this change: ${words(error.message)}.`;
    return `The service refused this: ${words(error.message)}.`;
  }
  switch (error.kind) {
    case 'network':
      if (error.code === 'OUTBOX_QUEUED')
        return 'Saved on this computer; it will be sent as soon as the service answers.';
      return error.message;
    case 'not_connected':
      return 'Postdesk is not connected to a service. Connect with your API key, or try offline.';
    case 'invalid_input':
      return error.issues && error.issues.length > 0 ? issuesText(error.issues) : error.message;
    case 'forbidden':
      // A change to what Postdesk runs that the user did not confirm: main says where to confirm it.
      if (error.code === NOT_CONFIRMED_CODE) return error.message;
      return 'This window is not allowed to talk to Postdesk.';
    case 'unavailable':
    case 'not_found':
      return error.message;
    default:
      return 'Postdesk ran into a problem it did not expect. Try again; if it happens again, restart Postdesk.';
  }
}

/**
 * Field-level messages of an `invalid_input` or a post-creation 400, keyed by the field's path (a form puts
 * each beside its field). The message names the rule; the field itself is the one it stands beside.
 */
export function issuesByField(error: Readonly<BridgeError> | null): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const issue of error?.issues ?? []) out[issue.path] ??= issue.message;
  return out;
}
