import type { UpdatePostResponse } from '../../../src-shared/api/posts';
import type { SingleChange } from '../outbox/change-plans';
import { UNKNOWN_WORDS } from '../post-changes/bulk-update';
import { BridgeFault, serviceWords } from './bridge-fault';
import type { PostCreatePort } from './ports';

/** Why a change has no answer yet, for a person: it may have been applied, and asking again never applies it twice. */
export const UNANSWERED_CODE = 'CHANGE_UNANSWERED';

/**
 * One post's update or delete through the outbox's change record, as the pages hear it: the post after it (none
 * for a delete); a refusal as the service's own fault; no answer as a `network` fault that says it may have been
 * applied (never a refusal).
 */
export async function changeOnePost(
  posts: PostCreatePort,
  change: SingleChange,
): Promise<UpdatePostResponse | null> {
  const o = await posts.change(change);
  if (o.state === 'done') return o.answer;
  if (o.state === 'failed') {
    if (o.cause !== undefined) throw o.cause;
    throw new BridgeFault(
      'api',
      serviceWords(o.error ?? 'The service did not apply this change.'),
      undefined,
      {
        code: o.code,
      },
    );
  }
  throw new BridgeFault('network', UNKNOWN_WORDS, undefined, { code: UNANSWERED_CODE });
}
