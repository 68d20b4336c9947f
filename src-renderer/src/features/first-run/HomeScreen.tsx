import { useEffect, useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { PageHeader } from '../../components/PageHeader';
import { IconCheck } from '../../components/icons';
import { hrefOf } from '../../app/router';
import {
  FIRST_RUN_STEPS,
  useFirstRunStore,
  type FirstRunProgress,
  type FirstRunStep,
} from '../../stores/use-first-run-store';
import { useInboxStore } from '../../stores/use-inbox-store';
import { useSettingsStore } from '../../stores/use-settings-store';
import './first-run.css';

/** Each step: what to do, why, and the screen that does it. */
const STEPS: Readonly<Record<FirstRunStep, { title: string; text: string; screen: string; go: string }>> = {
  times: {
    title: 'Set posting times',
    text: 'Pick the times of the week your queue fills, so a post can go to the next free one.',
    screen: 'queue',
    go: 'Open Queue',
  },
  post: {
    title: 'Write a first post',
    text: 'Write it once, see it as each platform shows it, then schedule or publish.',
    screen: 'compose',
    go: 'Open Compose',
  },
  approve: {
    title: 'Approve an inbox draft',
    text: 'Automations leave drafts in the Inbox. Approve one and it is scheduled.',
    screen: 'inbox',
    go: 'Open Inbox',
  },
  assistant: {
    title: 'Connect an AI assistant',
    text: 'Let Claude, Cursor or another assistant draft posts through Postdesk, with you approving each.',
    screen: 'assistant',
    go: 'Open AI assistant',
  },
};

function Checklist({
  progress,
  onHide,
}: {
  readonly progress: FirstRunProgress;
  readonly onHide: () => void;
}) {
  const titleId = useId();
  const done = FIRST_RUN_STEPS.filter((s) => progress[s] === true).length;
  return (
    <section className="card first-run" aria-labelledby={titleId}>
      <div className="card__header first-run__header">
        <div>
          <h2 id={titleId}>Get started</h2>
          <p className="muted" role="status">
            {done === FIRST_RUN_STEPS.length
              ? 'All four done. You are set up.'
              : `${done} of ${FIRST_RUN_STEPS.length} done`}
          </p>
        </div>
        <button type="button" className="btn btn--small btn--ghost" onClick={onHide}>
          Hide checklist
        </button>
      </div>
      <ol className="first-run__steps">
        {FIRST_RUN_STEPS.map((id) => {
          const step = STEPS[id];
          const state = progress[id];
          const word = state === true ? 'Done' : state === false ? 'Not done yet' : 'Not known yet';
          return (
            <li key={id} className={`first-run__step${state ? ' first-run__step--done' : ''}`}>
              <span className="mark-box first-run__mark" aria-hidden="true">
                {state ? <IconCheck size={14} /> : null}
              </span>
              <div className="first-run__text">
                <a
                  className="first-run__link"
                  href={hrefOf(step.screen)}
                  aria-describedby={`${titleId}-${id}`}
                >
                  {step.title}
                </a>
                <span className="visually-hidden" id={`${titleId}-${id}`}>
                  {word}
                </span>
                <p className="muted">{step.text}</p>
              </div>
              <span
                className={`first-run__state${state ? ' first-run__state--done' : ''}`}
                aria-hidden="true"
              >
                {word}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** Home: the first-run checklist (until put away) and the places a person goes most. */
export function HomeScreen() {
  const { progress, load } = useFirstRunStore(useShallow((s) => ({ progress: s.progress, load: s.load })));
  const { settings, loadSettings, update } = useSettingsStore(
    useShallow((s) => ({ settings: s.settings, loadSettings: s.load, update: s.update })),
  );
  const waiting = useInboxStore((s) => s.waiting);
  useEffect(() => {
    void load();
    // The preference that hides the checklist, read afresh (a new connection starts the stores over).
    void loadSettings();
  }, [load, loadSettings]);
  const view = settings.data;
  const dismissed = view?.first_run_dismissed ?? false;
  return (
    <div className="page">
      <PageHeader title="Home" subtitle="Where to start, and where to go next." />
      {view && !dismissed ? (
        progress ? (
          <Checklist progress={progress} onHide={() => void update({ first_run_dismissed: true })} />
        ) : (
          <p className="muted" role="status">
            Checking what is set up…
          </p>
        )
      ) : null}
      <section className="card" aria-label="Go to">
        <ul className="home__links">
          <li>
            <a href={hrefOf('compose')}>Write a post</a>
            <span className="muted">Compose, preview and schedule.</span>
          </li>
          <li>
            <a href={hrefOf('inbox')}>Review the inbox</a>
            <span className="muted">
              {waiting ? `${waiting} waiting for you.` : 'Drafts from automations and assistants.'}
            </span>
          </li>
          <li>
            <a href={hrefOf('calendar')}>See the week</a>
            <span className="muted">Everything scheduled, by day.</span>
          </li>
          <li>
            <a href={hrefOf('analytics')}>Check how posts did</a>
            <span className="muted">Impressions, likes and engagement.</span>
          </li>
        </ul>
      </section>
      {view && dismissed ? (
        <p className="muted">
          The getting-started checklist is hidden.{' '}
          <button
            type="button"
            className="btn btn--small btn--ghost"
            onClick={() => void update({ first_run_dismissed: false })}
          >
            Show it again
          </button>
        </p>
      ) : null}
    </div>
  );
}
