import { useEffect, useId, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import type { BridgeError, InboxDraft, InboxGroup, InboxOutcomes } from '../../../../src-shared/ipc';
import { LIMITS } from '../../../../src-shared/api/limits';
import { checkPost } from '../../../../src-shared/platform-check';
import { plainName } from '../../app/bidi';
import { formatDateTime, fromLocalInput, localZone, plural, toLocalInput } from '../../app/format';
import { hrefOf, useRoute } from '../../app/router';
import { Dialog } from '../../components/Dialog';
import { IconInbox } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { PlatformMark } from '../../components/PlatformMark';
import { StatusBadge } from '../../components/StatusBadge';
import { EmptyState, ErrorAlert } from '../../components/states';
import { useAccountsStore } from '../../stores/use-accounts-store';
import { useAutomationsStore } from '../../stores/use-automations-store';
import { useInboxStore } from '../../stores/use-inbox-store';
import { toast } from '../../stores/use-toast-store';
import { ProposalsSection } from './ProposalsSection';
import './inbox.css';
import { LoadGate } from '../../components/LoadGate';
import { toggled } from '../../app/toggled';
import { ActionButton } from '../../components/ActionButton';
import { TextInput } from '../../components/Field';

type Action = 'now' | 'at' | 'queue' | 'reject';

const inAnHour = () => toLocalInput(new Date(Date.now() + 3_600_000));

/** What a batch did, in one sentence; the first failure's reason when some failed. */
function report(verb: string, r: InboxOutcomes): { tone: 'success' | 'warning'; text: string } {
  const done = r.results.filter((x) => x.ok).length;
  const failed = r.results.filter((x) => !x.ok);
  if (failed.length === 0) return { tone: 'success', text: `${plural(done, 'draft')} ${verb}.` };
  const why = failed[0]?.error?.message ?? '';
  return {
    tone: 'warning',
    text: `${plural(done, 'draft')} ${verb}; ${plural(failed.length, 'draft')} not: ${why}`,
  };
}

export function InboxScreen() {
  const runId = useRoute().params.get('run');
  const { list, load, listen, busy, approve, reject } = useInboxStore(
    useShallow((s) => pick(s, 'list', 'load', 'listen', 'busy', 'approve', 'reject')),
  );
  const { loadAutomations, canEdit } = useAutomationsStore(
    useShallow((s) => ({ loadAutomations: s.load, canEdit: s.canEdit })),
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [at, setAt] = useState(inAnHour);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);

  useEffect(() => {
    void load(runId);
    void loadAutomations();
    // The accounts' names head each draft, as a post shows who posts it.
    void useAccountsStore.getState().ensure();
    return listen();
  }, [load, listen, loadAutomations, runId]);

  const groups = list.data?.groups ?? [];
  const drafts = groups.flatMap((g) => g.drafts);
  const ids = new Set(drafts.map((d) => d.post_id));
  const chosen = [...selected].filter((id) => ids.has(id));
  /** The bar's actions wait for a choice, and for the last one to end. */
  const none = chosen.length === 0 || busy !== null;

  const act = async (kind: Action, postIds: readonly string[]) => {
    setError(null);
    const when = kind === 'at' ? fromLocalInput(at) : null;
    if (kind === 'at' && !when) return;
    const r =
      kind === 'reject'
        ? await reject(postIds)
        : await approve(postIds, kind === 'queue' ? { queue: true } : when ? { at: when } : {});
    if (!r.ok) {
      setError(r.error);
      return;
    }
    const said = report(
      kind === 'reject'
        ? 'rejected and deleted'
        : kind === 'now'
          ? 'approved to publish now'
          : kind === 'queue'
            ? 'added to the posting queue'
            : 'scheduled',
      r.value,
    );
    toast(said.tone, said.text);
    setSelected(
      new Set([...selected].filter((id) => !r.value.results.some((x) => x.ok && x.post_id === id))),
    );
  };

  const toggle = (id: string) => setSelected(toggled(selected, id));

  return (
    <div className="page">
      <PageHeader
        title="Inbox"
        subtitle="Drafts your automations made. Nothing here publishes until you approve it."
      />
      <ProposalsSection />
      {runId ? (
        <p className="inbox__filter" role="status">
          Showing the drafts of one run. <a href={hrefOf('inbox')}>Show every draft</a>
        </p>
      ) : null}
      <section className="card row row--wrap inbox__bar" aria-label="Selected drafts">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={drafts.length > 0 && chosen.length === drafts.length}
            disabled={drafts.length === 0}
            onChange={(e) => setSelected(e.target.checked ? new Set(ids) : new Set())}
          />
          Select all
        </label>
        <span className="muted">{plural(chosen.length, 'draft')} selected</span>
        <div className="btn-row inbox__bar-actions">
          <ActionButton variant="primary" busy={none} onRun={() => void act('now', chosen)}>
            {busy === 'approve' ? 'Approving…' : 'Approve selected now'}
          </ActionButton>
          <label className="inbox__at">
            <span>At</span>
            <TextInput
              type="datetime-local"
              value={at}
              onValue={setAt}
              aria-label={`Time to publish the selected drafts (${localZone()} time)`}
            />
          </label>
          <ActionButton busy={none || !fromLocalInput(at)} onRun={() => void act('at', chosen)}>
            Schedule selected
          </ActionButton>
          <ActionButton busy={none} onRun={() => void act('queue', chosen)}>
            Queue selected
          </ActionButton>
          <ActionButton variant="danger" busy={none} onRun={() => void act('reject', chosen)}>
            {busy === 'reject' ? 'Rejecting…' : 'Reject selected'}
          </ActionButton>
        </div>
      </section>
      {error ? <ErrorAlert error={error} title="Nothing was changed" /> : null}
      <LoadGate state={list} what="the inbox" onRetry={load} freshness>
        {drafts.length === 0 ? (
          <EmptyState title="No drafts waiting" icon={<IconInbox size={20} />}>
            When an automation in draft mode runs, what it made waits here for you.
          </EmptyState>
        ) : (
          <>
            {list.data?.truncated ? (
              <p className="muted">
                The service lists the newest 100 drafts at a time; act on these to see the ones behind them.
              </p>
            ) : null}
            {groups.map((g) => (
              <GroupSection
                key={g.automation_id ?? 'elsewhere'}
                group={g}
                canEdit={canEdit}
                selected={selected}
                onToggle={toggle}
                onAct={(kind, id) => void act(kind, [id])}
                at={at}
              />
            ))}
          </>
        )}
      </LoadGate>
    </div>
  );
}

function GroupSection({
  group,
  canEdit,
  selected,
  onToggle,
  onAct,
  at,
}: {
  readonly group: InboxGroup;
  readonly canEdit: boolean;
  readonly selected: ReadonlySet<string>;
  readonly onToggle: (id: string) => void;
  readonly onAct: (kind: Action, id: string) => void;
  readonly at: string;
}) {
  const titleId = useId();
  const name = group.automation_name ? plainName(group.automation_name) : 'Runs not started on this computer';
  return (
    <section className="card inbox__group" aria-labelledby={titleId}>
      <div className="card__header">
        <div>
          <h2 id={titleId}>{name}</h2>
          <p className="muted">
            {plural(group.drafts.length, 'draft')} ·{' '}
            {canEdit
              ? 'Switch it between drafts and auto publish on the Automations screen.'
              : "Whether it makes drafts or publishes is set in the service's dashboard."}
          </p>
        </div>
      </div>
      <ul className="inbox__drafts" aria-label={`Drafts of ${name}`}>
        {group.drafts.map((d) => (
          <DraftItem
            key={d.post_id}
            draft={d}
            checked={selected.has(d.post_id)}
            onToggle={() => onToggle(d.post_id)}
            onAct={(kind) => onAct(kind, d.post_id)}
            at={at}
          />
        ))}
      </ul>
    </section>
  );
}

function Preview({
  draft,
  index,
  name,
  kind,
}: {
  readonly draft: InboxDraft;
  readonly index: number;
  readonly name: string;
  readonly kind: string;
}) {
  const preview = useInboxStore((s) => s.preview);
  const [src, setSrc] = useState<string | null>(null);
  // A stored upload is named by a random key: a name for machines, not shown (words for people).
  const machineName = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.\w+$/i.test(name);
  useEffect(() => {
    let live = true;
    if (kind === 'image') void preview(draft.post_id, index).then((u) => live && setSrc(u));
    return () => {
      live = false;
    };
  }, [preview, draft.post_id, index, kind]);
  return src ? (
    <img
      className="inbox__thumb"
      src={src}
      alt={machineName ? `Media ${index + 1}` : `Media ${index + 1}: ${name}`}
    />
  ) : (
    <span className="inbox__thumb inbox__thumb--label" title={machineName ? undefined : name}>
      {kind === 'video' ? 'Video' : kind === 'image' ? 'Image' : 'File'}
      {machineName ? null : <span className="inbox__thumb-name">{name}</span>}
    </span>
  );
}

function DraftItem({
  draft,
  checked,
  onToggle,
  onAct,
  at,
}: {
  readonly draft: InboxDraft;
  readonly checked: boolean;
  readonly onToggle: () => void;
  readonly onAct: (kind: Action) => void;
  readonly at: string;
}) {
  const busy = useInboxStore((s) => s.busy);
  const [editing, setEditing] = useState(false);
  const [confirmReject, setConfirmReject] = useState(false);
  const summary = draft.caption.slice(0, 60) || 'draft without a caption';
  // Each platform's rules (src-shared/platform-rules.ts): a draft a platform certainly refuses is not approved.
  const verdicts = useMemo(
    () =>
      checkPost(
        draft.targets.map((t) => t.platform),
        {
          caption: draft.caption,
          media: draft.media.map((m) => ({ kind: m.kind === 'other' ? 'unknown' : m.kind })),
        },
      ),
    [draft],
  );
  const blocked = verdicts.some((v) => v.severity === 'block');
  const accounts = useAccountsStore((s) => s.accounts.data);
  const names = draft.targets.flatMap((t) => {
    const name = accounts?.find((a) => a.id === t.social_account_id)?.name;
    return name ? [name] : [];
  });
  return (
    <li className="inbox__draft" aria-label={`Draft: ${summary}`}>
      <input
        type="checkbox"
        className="inbox__check"
        checked={checked}
        onChange={onToggle}
        aria-label={`Select draft: ${summary}`}
      />
      <div className="inbox__content">
        {names.length > 0 ? (
          <p className="inbox__author">
            <strong>{names[0]}</strong>
            {names.length > 1 ? (
              <span className="muted"> and {plural(names.length - 1, 'more account')}</span>
            ) : null}
          </p>
        ) : null}
        <p className="inbox__caption">{draft.caption || <span className="faint">No caption</span>}</p>
        {draft.media.length > 0 ? (
          <div className="inbox__media" aria-label="Media">
            {draft.media.map((m) => (
              <Preview key={m.index} draft={draft} index={m.index} name={m.name} kind={m.kind} />
            ))}
          </div>
        ) : null}
        <p className="inbox__meta">
          <span className="inbox__targets">
            {draft.targets.map((t) => (
              <PlatformMark key={t.delivery_id} platform={t.platform} />
            ))}
          </span>
          <span className="muted">Made {formatDateTime(draft.created_at)}</span>
          {draft.run.state ? <StatusBadge status={draft.run.state} label={`run ${draft.run.state}`} /> : null}
          <a href={hrefOf('automations', { run: draft.run.local_id ?? draft.run.id })}>Steps of this run</a>
        </p>
        {verdicts.length > 0 ? (
          <ul className="inbox__rules" aria-label="Platform rules">
            {verdicts.map((v) => (
              <li
                key={v.message}
                className={v.severity === 'block' ? 'inbox__rule--block' : 'inbox__rule--warn'}
              >
                {v.message}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="btn-row">
          <ActionButton variant="primary" busy={busy !== null || blocked} onRun={() => onAct('now')}>
            Approve now
          </ActionButton>
          <ActionButton
            busy={busy !== null || blocked || !fromLocalInput(at)}
            title="At the time chosen above"
            onRun={() => onAct('at')}
          >
            Approve for {formatDateTime(fromLocalInput(at))}
          </ActionButton>
          <ActionButton
            busy={busy !== null || blocked}
            title="At its accounts' next free slot in the posting queue"
            onRun={() => onAct('queue')}
          >
            Approve into queue
          </ActionButton>
          <ActionButton busy={busy !== null} onRun={() => setEditing(true)}>
            Edit
          </ActionButton>
          {confirmReject ? (
            <>
              <span className="muted">Delete this draft?</span>
              <button type="button" className="btn btn--small" onClick={() => setConfirmReject(false)}>
                Keep
              </button>
              <button
                type="button"
                className="btn btn--small btn--danger"
                onClick={() => {
                  setConfirmReject(false);
                  onAct('reject');
                }}
              >
                Yes, reject
              </button>
            </>
          ) : (
            <ActionButton variant="danger" busy={busy !== null} onRun={() => setConfirmReject(true)}>
              Reject
            </ActionButton>
          )}
        </div>
      </div>
      {editing ? <EditDialog draft={draft} onClose={() => setEditing(false)} /> : null}
    </li>
  );
}

function EditDialog({ draft, onClose }: { readonly draft: InboxDraft; readonly onClose: () => void }) {
  const { edit, approve, busy } = useInboxStore(useShallow((s) => pick(s, 'edit', 'approve', 'busy')));
  const [caption, setCaption] = useState(draft.caption);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const save = async (thenApprove: boolean) => {
    setError(null);
    const r = await edit(draft.post_id, caption);
    const failed = !r.ok ? r.error : !r.value.ok ? r.value.error : null;
    if (failed) {
      setError(failed);
      return;
    }
    if (thenApprove) {
      const a = await approve([draft.post_id]);
      const why = !a.ok ? a.error : (a.value.results.find((x) => !x.ok)?.error ?? null);
      if (why) {
        setError(why);
        return;
      }
      toast('success', 'Saved and approved to publish now.');
    } else toast('success', 'Caption saved.');
    onClose();
  };
  return (
    <Dialog
      open
      title="Edit draft"
      onClose={onClose}
      footer={
        <div className="btn-row btn-row--end">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn" disabled={busy !== null} onClick={() => void save(false)}>
            Save
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy !== null}
            onClick={() => void save(true)}
          >
            Save and approve now
          </button>
        </div>
      }
    >
      <label className="field">
        <span className="field__label">Caption</span>
        <textarea
          className="textarea"
          rows={6}
          maxLength={LIMITS.captionLength}
          value={caption}
          onChange={(e) => setCaption(e.target.value)}
        />
      </label>
      {error ? <ErrorAlert error={error} title="Not saved" /> : null}
    </Dialog>
  );
}
