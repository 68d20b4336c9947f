import { useEffect, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AgentCommand, BridgeError, SettingsPatch, SettingsView } from '../../../../src-shared/ipc';
import { MISSED_RUN_POLICIES, type MissedRunPolicy } from '../../../../src-shared/settings';
import { issuesByField } from '../../app/describe-error';
import { PageHeader } from '../../components/PageHeader';
import { ErrorAlert, ErrorState, LoadingState } from '../../components/states';
import { useAppStore } from '../../stores/use-app-store';
import { useConnectionStore } from '../../stores/use-connection-store';
import { useExecutorStore } from '../../stores/use-executor-store';
import { useSettingsStore } from '../../stores/use-settings-store';
import { toast } from '../../stores/use-toast-store';
import { ExecutorFiguresCard } from './ExecutorFiguresCard';
import { UpcomingCard } from './UpcomingCard';
import { UpdatesCard } from './UpdatesCard';
import { CommandLineCard } from './CommandLineCard';
import './settings.css';
import { LogFileNote } from './LogFileNote';

/** A Record so a policy added to the contract must get its words here. */
const POLICY_TEXT: Readonly<Record<MissedRunPolicy, { label: string; note: string }>> = {
  latest: { label: 'Run the latest', note: 'After a gap, run only the most recent missed occurrence.' },
  skip: {
    label: 'Skip',
    note: 'Record missed occurrences as missed, with the reason, and run none of them.',
  },
  all: { label: 'Run all', note: 'Run every missed occurrence, oldest first.' },
};
const POLICIES = MISSED_RUN_POLICIES.map((value) => ({ value, ...POLICY_TEXT[value] }));

/** The form's text state; parsed into a patch of only what changed. */
interface Draft {
  base_url: string;
  alias_url: string;
  proxy_url: string;
  executor_name: string;
  concurrency: string;
  missed_run_policy: MissedRunPolicy;
  grace_window_minutes: string;
  agent_commands: { agent_type: string; command: string; args: string }[];
  ffmpeg_path: string;
  ffprobe_path: string;
}

const toDraft = (s: SettingsView): Draft => ({
  base_url: s.base_url ?? '',
  alias_url: s.alias_url ?? '',
  proxy_url: s.proxy_url ?? '',
  executor_name: s.executor_name ?? '',
  concurrency: String(s.concurrency),
  missed_run_policy: s.missed_run_policy,
  grace_window_minutes: String(s.grace_window_minutes),
  agent_commands: s.agent_commands.map((c) => ({
    agent_type: c.agent_type,
    command: c.command,
    args: c.args.join('\n'),
  })),
  ffmpeg_path: s.ffmpeg_path ?? '',
  ffprobe_path: s.ffprobe_path ?? '',
});

const commandsOf = (d: Draft): AgentCommand[] =>
  d.agent_commands.map((c) => ({
    agent_type: c.agent_type.trim(),
    command: c.command.trim(),
    args: c.args
      .split('\n')
      .map((a) => a.trim())
      .filter(Boolean),
  }));

function patchOf(d: Draft, s: SettingsView): SettingsPatch {
  const p: Record<string, unknown> = {};
  if ((d.base_url.trim() || null) !== s.base_url) p.base_url = d.base_url.trim() || null;
  if ((d.alias_url.trim() || null) !== s.alias_url) p.alias_url = d.alias_url.trim() || null;
  if ((d.proxy_url.trim() || null) !== s.proxy_url) p.proxy_url = d.proxy_url.trim() || null;
  if ((d.executor_name.trim() || null) !== s.executor_name) p.executor_name = d.executor_name.trim() || null;
  if (Number(d.concurrency) !== s.concurrency) p.concurrency = Number(d.concurrency);
  if (d.missed_run_policy !== s.missed_run_policy) p.missed_run_policy = d.missed_run_policy;
  if (Number(d.grace_window_minutes) !== s.grace_window_minutes)
    p.grace_window_minutes = Number(d.grace_window_minutes);
  const commands = commandsOf(d);
  if (JSON.stringify(commands) !== JSON.stringify(s.agent_commands)) p.agent_commands = commands;
  if ((d.ffmpeg_path.trim() || null) !== s.ffmpeg_path) p.ffmpeg_path = d.ffmpeg_path.trim() || null;
  if ((d.ffprobe_path.trim() || null) !== s.ffprobe_path) p.ffprobe_path = d.ffprobe_path.trim() || null;
  return p as SettingsPatch;
}

export function SettingsScreen() {
  const { settings, saving, load, update, listen } = useSettingsStore(
    useShallow((s) => ({
      settings: s.settings,
      saving: s.saving,
      load: s.load,
      update: s.update,
      listen: s.listen,
    })),
  );
  useEffect(() => {
    void load();
    return listen();
  }, [load, listen]);

  return (
    <div className="page">
      <PageHeader
        title="Settings"
        subtitle="Where Postdesk connects, how its executor runs automations, and how it updates."
      />
      <ConnectionCard />
      {settings.data === null && settings.loading ? (
        <LoadingState label="Loading settings…" />
      ) : settings.data === null && settings.error ? (
        <ErrorState error={settings.error} title="Could not load settings" onRetry={() => void load()} />
      ) : settings.data ? (
        <SettingsForm
          // A change from elsewhere resets the draft; the switches saved at once (updates) do not.
          key={JSON.stringify(toDraft(settings.data))}
          settings={settings.data}
          saving={saving}
          update={update}
        />
      ) : null}
      <ExecutorFiguresCard />
      <UpcomingCard />
      <UpdatesCard settings={settings.data} />
      <DesktopOnlyCommandLine />
      <About />
      <LogFileNote file={settings.data?.log_file} />
    </div>
  );
}

function SettingsForm({
  settings,
  saving,
  update,
}: {
  readonly settings: SettingsView;
  readonly saving: boolean;
  readonly update: ReturnType<typeof useSettingsStore.getState>['update'];
}) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const patch = patchOf(draft, settings);
  const dirty = Object.keys(patch).length > 0;
  const fieldErrors = issuesByField(error);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft({ ...draft, [k]: v });
  // The name the executor goes by now: what an empty field means.
  const { executorName, loadExecutor, executorLoaded } = useExecutorStore(
    useShallow((s) => ({
      executorName: s.status.data?.name ?? null,
      loadExecutor: s.load,
      executorLoaded: s.status.data !== null || s.status.loading || s.status.error !== null,
    })),
  );
  useEffect(() => {
    if (!executorLoaded) void loadExecutor();
  }, [executorLoaded, loadExecutor]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const r = await update(patch);
    if (r.ok) toast('success', 'Settings saved.');
    else setError(r.error);
  };

  const text = (
    key: 'base_url' | 'alias_url' | 'proxy_url' | 'executor_name' | 'ffmpeg_path' | 'ffprobe_path',
    label: string,
    hint: string,
    type = 'url',
    /** What applies while the field is empty, shown in it. */
    effective?: string,
  ) => (
    <div className="field">
      <label className="field__label" htmlFor={`settings-${key}`}>
        {label}
      </label>
      <input
        id={`settings-${key}`}
        className="input"
        type={type}
        value={draft[key]}
        placeholder={effective}
        onChange={(e) => set(key, e.target.value)}
        aria-invalid={Boolean(fieldErrors[key])}
        aria-describedby={`settings-${key}-hint`}
      />
      <span className="field__hint" id={`settings-${key}-hint`}>
        {fieldErrors[key] ? <span className="field__error">{fieldErrors[key]}</span> : hint}
      </span>
    </div>
  );

  return (
    <form className="form-stack" onSubmit={(e) => void onSubmit(e)} aria-label="Settings">
      <section className="card" aria-labelledby="settings-service-title">
        <div className="card__header">
          <h2 id="settings-service-title">Service</h2>
        </div>
        <div className="card__body form-grid">
          {text('base_url', 'Base URL', 'Every request goes here.')}
          {text('alias_url', 'Alias URL', 'The fallback host serving the same paths. Optional.')}
          {text('proxy_url', 'Proxy', 'An HTTP(S) proxy for all requests. Optional.')}
        </div>
      </section>

      <section className="card" aria-labelledby="settings-executor-title">
        <div className="card__header">
          <h2 id="settings-executor-title">Executor</h2>
        </div>
        <div className="card__body form-stack">
          <div className="form-grid">
            {text(
              'executor_name',
              'Executor name',
              executorName && !draft.executor_name.trim()
                ? `How this computer appears in the dashboard. Empty: “${executorName}”.`
                : 'How this computer appears in the dashboard.',
              'text',
              executorName ?? undefined,
            )}
            <div className="field">
              <label className="field__label" htmlFor="settings-concurrency">
                Concurrent runs
              </label>
              <input
                id="settings-concurrency"
                className="input"
                type="number"
                min={1}
                max={16}
                value={draft.concurrency}
                onChange={(e) => set('concurrency', e.target.value)}
                aria-invalid={Boolean(fieldErrors.concurrency)}
              />
              <span className="field__hint">
                {fieldErrors.concurrency ? (
                  <span className="field__error">{fieldErrors.concurrency}</span>
                ) : (
                  'How many automations may run at once (1–16).'
                )}
              </span>
            </div>
          </div>
          <fieldset className="policies">
            <legend className="field__label">When runs were missed (sleep, off, offline)</legend>
            {POLICIES.map((p) => (
              <label key={p.value} className="policy">
                <input
                  type="radio"
                  name="missed-run-policy"
                  value={p.value}
                  checked={draft.missed_run_policy === p.value}
                  onChange={() => set('missed_run_policy', p.value)}
                />
                <span>
                  <strong>{p.label}</strong>
                  <span className="muted"> · {p.note}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="form-grid">
            <div className="field">
              <label className="field__label" htmlFor="settings-grace">
                Grace window (minutes)
              </label>
              <input
                id="settings-grace"
                className="input"
                type="number"
                min={0}
                max={24 * 60}
                value={draft.grace_window_minutes}
                onChange={(e) => set('grace_window_minutes', e.target.value)}
                aria-invalid={Boolean(fieldErrors.grace_window_minutes)}
                aria-describedby="settings-grace-hint"
              />
              <span className="field__hint" id="settings-grace-hint">
                {fieldErrors.grace_window_minutes ? (
                  <span className="field__error">{fieldErrors.grace_window_minutes}</span>
                ) : (
                  'With “Run the latest”, how late a missed run may still start; an older one is recorded as missed (0–1440).'
                )}
              </span>
            </div>
          </div>
          <AgentCommands
            value={draft.agent_commands}
            onChange={(v) => set('agent_commands', v)}
            error={fieldErrors.agent_commands ?? null}
          />
          <p className="field__hint">
            Postdesk asks you to confirm a change to agent commands or media tools outside this window before
            it saves it: these decide which programs run. Which agent runs each automation, and the folder it
            publishes from, are set beside that automation on the <a href="#/automations">Automations</a>{' '}
            screen.
          </p>
        </div>
      </section>

      <section className="card" aria-labelledby="settings-media-title">
        <div className="card__header">
          <h2 id="settings-media-title">Media tools</h2>
        </div>
        <div className="card__body form-grid">
          {text(
            'ffmpeg_path',
            'ffmpeg',
            'The ffmpeg program to use. Empty: the bundled one, else PATH.',
            'text',
          )}
          {text(
            'ffprobe_path',
            'ffprobe',
            'The ffprobe program to use. Empty: the bundled one, else PATH.',
            'text',
          )}
        </div>
      </section>

      {error ? <ErrorAlert error={error} title="Not saved" /> : null}
      <div className="btn-row btn-row--end settings__actions">
        <button
          type="button"
          className="btn"
          disabled={!dirty || saving}
          onClick={() => setDraft(toDraft(settings))}
        >
          Discard changes
        </button>
        <button type="submit" className="btn btn--primary" disabled={!dirty || saving}>
          {saving ? 'Saving…' : 'Save settings'}
        </button>
      </div>
    </form>
  );
}

function AgentCommands({
  value,
  onChange,
  error,
}: {
  readonly value: Draft['agent_commands'];
  readonly onChange: (v: Draft['agent_commands']) => void;
  readonly error: string | null;
}) {
  const edit = (i: number, patch: Partial<Draft['agent_commands'][number]>) =>
    onChange(value.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <fieldset className="agent-commands">
      <legend className="field__label">Agent commands</legend>
      <p className="field__hint">The program each agent type runs, without a shell. One argument per line.</p>
      {value.map((c, i) => (
        <div key={i} className="agent-command" role="group" aria-label={`Agent command ${i + 1}`}>
          <div className="field">
            <label className="field__label" htmlFor={`agent-${i}-type`}>
              Agent type
            </label>
            <input
              id={`agent-${i}-type`}
              className="input"
              value={c.agent_type}
              onChange={(e) => edit(i, { agent_type: e.target.value })}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`agent-${i}-command`}>
              Program
            </label>
            <input
              id={`agent-${i}-command`}
              className="input mono"
              value={c.command}
              onChange={(e) => edit(i, { command: e.target.value })}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`agent-${i}-args`}>
              Arguments
            </label>
            <textarea
              id={`agent-${i}-args`}
              className="textarea mono agent-command__args"
              value={c.args}
              onChange={(e) => edit(i, { args: e.target.value })}
            />
          </div>
          <button
            type="button"
            className="btn btn--small btn--ghost"
            aria-label={`Remove agent command ${i + 1}`}
            onClick={() => onChange(value.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      {error ? <p className="field__error">{error}</p> : null}
      <div>
        <button
          type="button"
          className="btn btn--small"
          onClick={() => onChange([...value, { agent_type: '', command: '', args: '' }])}
        >
          Add agent command
        </button>
      </div>
    </fieldset>
  );
}

function ConnectionCard() {
  const { status, busy, disconnect, forgetKey } = useConnectionStore(
    useShallow((s) => ({ status: s.status, busy: s.busy, disconnect: s.disconnect, forgetKey: s.forgetKey })),
  );
  const [confirming, setConfirming] = useState(false);
  const where = status?.offline ? 'the offline sandbox' : (status?.base_url ?? 'the service');
  return (
    <section className="card" aria-labelledby="settings-connection-title">
      <div className="card__header">
        <h2 id="settings-connection-title">Connection</h2>
      </div>
      <div className="card__body settings__connection">
        <dl className="facts">
          <dt>Connected to</dt>
          <dd>{status?.offline ? 'The offline sandbox on this computer' : (status?.base_url ?? '—')}</dd>
          <dt>API key</dt>
          <dd>{status?.has_key ? 'Stored (write-only: it is never shown again)' : 'None stored'}</dd>
        </dl>
        <div className="btn-row">
          {status?.has_key && !status.offline ? (
            <button
              type="button"
              className="btn"
              onClick={() =>
                void forgetKey().then(
                  (ok) => ok && toast('success', 'The API key was removed from the keychain.'),
                )
              }
            >
              Forget API key
            </button>
          ) : null}
          {confirming ? null : (
            <button
              type="button"
              className="btn"
              disabled={busy !== null}
              onClick={() => setConfirming(true)}
            >
              Disconnect
            </button>
          )}
        </div>
        {confirming ? (
          <div className="alert alert--warning settings__confirm" role="group" aria-label="Disconnect?">
            <div>
              <p className="alert__title">Disconnect from {where}?</p>
              <p>
                Postdesk stops reaching it from this computer: screens show nothing from it and automations
                stop running here until you connect again.{' '}
                {status?.has_key && !status.offline ? 'The stored API key stays, for the next connect.' : ''}
              </p>
              <div className="btn-row">
                <button
                  type="button"
                  className="btn btn--small"
                  autoFocus
                  onClick={() => setConfirming(false)}
                >
                  Stay connected
                </button>
                <button
                  type="button"
                  className="btn btn--small btn--danger"
                  disabled={busy !== null}
                  onClick={() => void disconnect()}
                >
                  {busy === 'disconnect' ? 'Disconnecting…' : 'Yes, disconnect'}
                </button>
              </div>
            </div>
          </div>
        ) : null}
      </div>
    </section>
  );
}

/** `postdesk web` is the CLI already: only the desktop app offers to put the command on the PATH. */
function DesktopOnlyCommandLine() {
  const host = useAppStore((s) => s.info?.host);
  return host === 'electron' ? <CommandLineCard /> : null;
}

function About() {
  const info = useAppStore((s) => s.info);
  if (!info) return null;
  return (
    <p className="faint settings__about">
      Postdesk {info.version} · {info.host === 'web' ? 'browser window (postdesk web)' : 'desktop app'} ·{' '}
      {info.platform}
    </p>
  );
}
