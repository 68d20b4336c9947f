import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import type { SettingsPatch, SettingsView, UpdatePhase, UpdateState } from '../../../../src-shared/ipc';
import { UPDATE_CHANNELS, type UpdateChannel } from '../../../../src-shared/settings';
import { formatBytes } from '../../../../src-shared/format-bytes';
import { formatDateTime, formatRelative, plural } from '../../app/format';
import { useNow } from '../../app/use-now';
import { Markdown } from '../../components/Markdown';
import { Progress } from '../../components/Progress';
import { Segmented } from '../../components/Segmented';
import { StatusBadge } from '../../components/StatusBadge';
import { ErrorAlert } from '../../components/states';
import { useSettingsStore } from '../../stores/use-settings-store';
import { toast } from '../../stores/use-toast-store';
import { useUpdatesStore } from '../../stores/use-updates-store';
import { SettingsCard } from './SettingsCard';
import { LoadGate } from '../../components/LoadGate';
import { BusyButton } from '../../components/BusyButton';

/** A Record so a phase added to the contract must get its words here. */
const PHASE_TEXT: Readonly<Record<UpdatePhase, { label: string; tone: string; note: string }>> = {
  disabled: {
    label: 'off',
    tone: 'stopped',
    note: 'This build does not update itself (a development run, or no update feed is configured).',
  },
  unsupported: { label: 'desktop app', tone: 'stopped', note: 'Updates are managed by the desktop app.' },
  idle: { label: 'not checked', tone: 'stopped', note: 'Postdesk checks for updates in the background.' },
  checking: { label: 'checking', tone: 'info', note: 'Looking for a new version…' },
  'up-to-date': { label: 'up to date', tone: 'completed', note: 'You have the latest version.' },
  downloading: { label: 'downloading', tone: 'info', note: 'Downloading the new version in the background.' },
  downloaded: {
    label: 'ready',
    tone: 'completed',
    note: 'The new version is downloaded. It installs when you quit Postdesk, or now with Restart now.',
  },
  'waiting-for-idle': {
    label: 'waiting',
    tone: 'paused',
    note: 'Restart requested: the new version installs as soon as the work in progress ends.',
  },
  installing: { label: 'installing', tone: 'running', note: 'Installing; Postdesk restarts in a moment.' },
  error: { label: 'error', tone: 'failed', note: 'The last check or download failed.' },
};

/** A Record so a channel added to the contract must get its label here. */
const CHANNEL_LABEL: Readonly<Record<UpdateChannel, string>> = { stable: 'Stable', beta: 'Beta' };
const CHANNELS = UPDATE_CHANNELS.map((value) => ({ value, label: CHANNEL_LABEL[value] }));

/**
 * When the downloaded version installs, in words: at the next quit, after the work in progress, or now.
 * Null while there is nothing to install.
 */
function installTiming(u: Readonly<UpdateState>): string | null {
  if (u.phase === 'downloaded') return 'At next quit, or now with Restart now';
  if (u.phase === 'installing') return 'Now: Postdesk restarts in a moment';
  if (u.phase !== 'waiting-for-idle') return null;
  const runs = u.waitingFor?.activeRuns ?? 0;
  const uploads = u.waitingFor?.activeUploads ?? 0;
  if (runs + uploads === 0) return 'In a moment';
  const work = [runs > 0 ? plural(runs, 'run') : null, uploads > 0 ? plural(uploads, 'upload') : null]
    .filter(Boolean)
    .join(' and ');
  return `After the ${work} in progress ${runs + uploads === 1 ? 'finishes' : 'finish'}`;
}

/** Phases in which a check would only repeat work already under way. */
const BUSY_PHASES: ReadonlySet<UpdatePhase> = new Set(['checking', 'downloading', 'installing']);

export function UpdatesCard({ settings }: { readonly settings: SettingsView | null }) {
  const { state, busy, actionError, load, listen, check, restartNow } = useUpdatesStore(
    useShallow((s) => pick(s, 'state', 'busy', 'actionError', 'load', 'listen', 'check', 'restartNow')),
  );
  useEffect(() => {
    const off = listen();
    void load();
    return off;
  }, [load, listen]);

  const u = state.data;
  return (
    <SettingsCard
      id="updates"
      title="Updates"
      body="form-stack"
      badge={
        u && u.phase !== 'unsupported' ? (
          <StatusBadge status={PHASE_TEXT[u.phase].tone} label={PHASE_TEXT[u.phase].label} />
        ) : null
      }
    >
      <LoadGate state={state} what="the update status" onRetry={load}>
        {u?.phase === 'unsupported' ? (
          <p className="muted">
            Updates are managed by the desktop app: this browser window (<code>postdesk web</code>) does not
            update itself.
          </p>
        ) : u ? (
          <>
            <UpdateStatus u={u} />
            {actionError ? <ErrorAlert error={actionError} title="The updater did not answer" /> : null}
            <div className="stack">
              <div className="btn-row">
                <button
                  type="button"
                  className="btn"
                  disabled={busy !== null || u.phase === 'disabled' || BUSY_PHASES.has(u.phase)}
                  onClick={() => void check()}
                >
                  {busy === 'check' || u.phase === 'checking' ? 'Checking…' : 'Check for updates'}
                </button>
                <BusyButton
                  action="restart"
                  busy={busy}
                  working="Requesting…"
                  className="btn btn--primary"
                  off={u.restartRequested || (u.phase !== 'downloaded' && u.phase !== 'waiting-for-idle')}
                  describedBy="updates-restart-hint"
                  onRun={restartNow}
                >
                  Restart now
                </BusyButton>
              </div>
              <p className="field__hint" id="updates-restart-hint">
                {u.restartRequested
                  ? 'Restart requested: Postdesk installs the update and restarts as soon as no run or upload is in progress.'
                  : 'Restart now installs a downloaded update once no automation run or upload is in progress: it never interrupts one.'}
              </p>
            </div>
            {settings ? <DesktopPreferences settings={settings} /> : null}
          </>
        ) : null}
      </LoadGate>
    </SettingsCard>
  );
}

function UpdateStatus({ u }: { readonly u: UpdateState }) {
  const now = useNow(30_000);
  const p = u.progress;
  const timing = installTiming(u);
  return (
    <div className="form-stack updates__status" aria-live="polite">
      <p>{PHASE_TEXT[u.phase].note}</p>
      <dl className="facts">
        <dt>This version</dt>
        <dd>{u.currentVersion}</dd>
        {u.availableVersion ? (
          <>
            <dt>New version</dt>
            <dd>{u.availableVersion}</dd>
          </>
        ) : null}
        {timing ? (
          <>
            <dt>Installs</dt>
            <dd>{timing}</dd>
          </>
        ) : null}
        <dt>Last checked</dt>
        <dd title={u.lastCheckedAt ? formatDateTime(u.lastCheckedAt) : undefined}>
          {u.lastCheckedAt ? formatRelative(u.lastCheckedAt, now) : 'Not yet'}
        </dd>
      </dl>
      {u.phase === 'downloading' ? (
        <div className="stack updates__progress">
          <Progress
            value={p?.percent ?? 0}
            max={100}
            label={`Downloading ${u.availableVersion ?? 'the update'}`}
          />
          <span className="faint">
            {p
              ? `${Math.floor(p.percent)}% · ${formatBytes(p.transferred)} of ${formatBytes(p.total)}` +
                (p.bytesPerSecond > 0 ? ` · ${formatBytes(p.bytesPerSecond)}/s` : '')
              : 'Starting the download…'}
          </span>
        </div>
      ) : null}
      {u.availableVersion && u.releaseNotes ? (
        <section className="stack updates__notes" aria-labelledby="updates-notes-title">
          <h3 id="updates-notes-title">What’s new in {u.availableVersion}</h3>
          <Markdown source={u.releaseNotes} label={`Release notes for ${u.availableVersion}`} />
        </section>
      ) : null}
      {u.error ? (
        <div className="alert alert--error" role="alert">
          <div>
            <p className="alert__title">Update failed</p>
            <p>{u.error}</p>
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** Saved as soon as they change: they are switches, not part of the form's draft. */
function DesktopPreferences({ settings }: { readonly settings: SettingsView }) {
  const { update, saving } = useSettingsStore(useShallow((s) => pick(s, 'update', 'saving')));
  const save = async (patch: SettingsPatch, done: string) => {
    const r = await update(patch);
    toast(r.ok ? 'success' : 'error', r.ok ? done : `Not saved: ${r.error.message}`);
  };
  return (
    <div className="updates__prefs">
      <div className="field">
        <span className="field__label">Update channel</span>
        <Segmented
          label="Update channel"
          value={settings.update_channel}
          options={CHANNELS}
          onChange={(v) =>
            v !== settings.update_channel &&
            void save({ update_channel: v }, `Updates now come from the ${v} channel.`)
          }
        />
        <span className="field__hint">
          Beta gets new versions first; stable gets them once they have settled.
        </span>
      </div>
      <div className="field">
        <span className="field__label">At login</span>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={settings.start_at_login}
            disabled={saving}
            onChange={(e) =>
              void save(
                { start_at_login: e.target.checked },
                e.target.checked ? 'Postdesk will start at login.' : 'Postdesk will not start at login.',
              )
            }
          />
          Start Postdesk at login
        </label>
        <span className="field__hint">In the tray, so automations run without opening the window.</span>
      </div>
    </div>
  );
}
