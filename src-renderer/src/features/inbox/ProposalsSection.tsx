import { useEffect, useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import type { Platform } from '../../../../src-shared/api/common';
import { PLATFORMS } from '../../../../src-shared/api/common';
import type { BridgeError, Proposal } from '../../../../src-shared/ipc';
import { formatDateTime, plural } from '../../app/format';
import { hrefOf } from '../../app/router';
import { ErrorAlert } from '../../components/states';
import { useAssistantStore } from '../../stores/use-assistant-store';
import { toast } from '../../stores/use-toast-store';
import { CaptionPreviews } from '../compose/CaptionPreviews';
import { ActionButton } from '../../components/ActionButton';

/** The platforms a proposal's arguments name (its targets), for its previews. */
function platformsOf(args: Readonly<Record<string, unknown>>): Platform[] {
  const targets = Array.isArray(args.targets) ? (args.targets as { platform?: unknown }[]) : [];
  const named = targets
    .map((t) => t.platform)
    .filter((p): p is Platform => PLATFORMS.includes(p as Platform));
  return [...new Set(named)];
}

const captionOf = (args: Readonly<Record<string, unknown>>): string | null =>
  typeof args.caption === 'string' ? args.caption : null;

/** A tool's name in words: `create_post` → "Create post". */
const toolWords = (tool: string): string => {
  const words = tool.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * What AI assistants asked to do through `postdesk mcp` and wait for a person (docs/mcp.md). Each shows
 * beside its per-platform previews; Approve sends it at once, exactly once; Reject sends nothing.
 */
export function ProposalsSection() {
  const { proposals, loadProposals, listen, decide, busy } = useAssistantStore(
    useShallow((s) => pick(s, 'proposals', 'loadProposals', 'listen', 'decide', 'busy')),
  );
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const titleId = useId();
  useEffect(() => {
    void loadProposals();
    return listen();
  }, [loadProposals, listen]);

  const waiting = proposals.data?.proposals ?? [];
  if (waiting.length === 0 && !error) return null;

  const act = async (p: Proposal, decision: 'approve' | 'reject') => {
    setError(null);
    const r = await decide(p.id, decision);
    if (!r.ok) return setError(r.error);
    if (r.value.error) return setError(r.value.error);
    toast(
      'success',
      decision === 'approve'
        ? `${toolWords(p.tool)} approved and sent.`
        : `${toolWords(p.tool)} rejected: nothing was sent.`,
    );
  };

  return (
    <section className="card inbox__group" aria-labelledby={titleId}>
      <div className="card__header">
        <div>
          <h2 id={titleId}>From your AI assistant</h2>
          <p className="muted">
            {plural(waiting.length, 'request')} waiting. Approving sends it once, exactly as shown; if the
            assistant changes anything, it asks again. <a href={hrefOf('assistant')}>Policies and activity</a>
          </p>
        </div>
      </div>
      {error ? <ErrorAlert error={error} title="Not done" /> : null}
      <ul className="inbox__drafts" aria-label="Requests from your AI assistant">
        {waiting.map((p) => {
          const caption = captionOf(p.arguments);
          const platforms = platformsOf(p.arguments);
          return (
            <li key={p.id} className="inbox__draft proposal" aria-label={`${toolWords(p.tool)} request`}>
              <div className="row row--wrap proposal__head">
                <strong>{toolWords(p.tool)}</strong>
                <span className="muted" title={p.created_at}>
                  asked {formatDateTime(p.created_at)}
                </span>
              </div>
              {caption !== null && platforms.length > 0 ? (
                <CaptionPreviews
                  caption={caption}
                  platforms={platforms}
                  media={[]}
                  idPrefix={`proposal-${p.id}`}
                />
              ) : null}
              <details className="proposal__details">
                <summary>Exactly what will be sent</summary>
                <pre className="proposal__args">{JSON.stringify(p.arguments, null, 2)}</pre>
              </details>
              <div className="btn-row">
                <ActionButton variant="primary" busy={busy !== null} onRun={() => void act(p, 'approve')}>
                  {busy === p.id ? 'Sending…' : 'Approve and send'}
                </ActionButton>
                <ActionButton variant="danger" busy={busy !== null} onRun={() => void act(p, 'reject')}>
                  Reject
                </ActionButton>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
