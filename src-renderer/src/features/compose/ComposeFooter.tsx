import { useShallow } from 'zustand/react/shallow';
import type { ComposeWhen } from '../../../../src-shared/ipc';
import { Segmented } from '../../components/Segmented';
import { useComposeStore } from '../../stores/use-compose-store';
import { AddToQueueButton } from '../queue/AddToQueueButton';
import { BLOCKERS_ID } from './ComposeChecks';
import { SaveNote } from './SaveNote';
import type { ComposePost } from './use-compose-post';
import { WhenPicks } from './WhenPicks';

export const WHEN_OPTIONS: readonly { readonly value: ComposeWhen; readonly label: string }[] = [
  { value: 'now', label: 'Publish now' },
  { value: 'schedule', label: 'Schedule' },
  { value: 'draft', label: 'Save draft' },
];

/** "Cmd" where the platform's key is Command, "Ctrl" elsewhere. */
const MOD = /Mac|iPhone|iPad/.test(navigator.platform) ? 'Cmd' : 'Ctrl';

/**
 * The one footer of the composer, always on screen below the content (never over it): when the post goes out,
 * the quick times, and Send, named for what it does. Send and Ctrl/Cmd+Enter go through the form's submit.
 */
export function ComposeFooter({ post }: { readonly post: ComposePost }) {
  const { setWhen, sent, save, saveError } = useComposeStore(
    useShallow((s) => ({ setWhen: s.setWhen, sent: s.sent, save: s.save, saveError: s.saveError })),
  );
  const blocked = post.checks.blockers.length > 0 || post.submitting;
  const label = WHEN_OPTIONS.find((o) => o.value === post.when)?.label ?? 'Publish now';
  return (
    <section className="compose-footer" aria-label="When and send">
      <div className="compose-footer__inner">
        <div className="compose-footer__when">
          <Segmented label="When to publish" value={post.when} options={WHEN_OPTIONS} onChange={setWhen} />
          <WhenPicks
            when={post.when}
            localAt={post.localAt}
            scheduledAt={post.scheduledAt}
            now={post.now}
            targets={post.targets}
          />
        </div>
        <div className="btn-row btn-row--end">
          <SaveNote state={save} error={saveError} />
          <AddToQueueButton
            request={{ caption: post.caption, targets: post.targets, media: post.uploaded }}
            disabled={blocked}
            onQueued={() => void sent()}
          />
          <button
            type="submit"
            className="btn btn--primary compose__submit"
            disabled={blocked}
            aria-describedby={post.checks.blockers.length > 0 ? BLOCKERS_ID : undefined}
            aria-keyshortcuts="Control+Enter Meta+Enter"
            title={`${label} (${MOD}+Enter)`}
          >
            {post.submitting ? 'Sending…' : label}
          </button>
        </div>
      </div>
    </section>
  );
}
