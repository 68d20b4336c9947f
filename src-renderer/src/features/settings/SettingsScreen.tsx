import { useEffect, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import type { BridgeError, SettingsView } from '../../../../src-shared/ipc';
import { MISSED_RUN_POLICIES, type MissedRunPolicy } from '../../../../src-shared/settings';
import { issuesByField } from '../../app/describe-error';
import { PageHeader } from '../../components/PageHeader';
import { ErrorAlert } from '../../components/states';
import { useAppStore } from '../../stores/use-app-store';
import { useExecutorStore } from '../../stores/use-executor-store';
import { useSettingsStore } from '../../stores/use-settings-store';
import { toast } from '../../stores/use-toast-store';
import { ExecutorFiguresCard } from './ExecutorFiguresCard';
import { UpcomingCard } from './UpcomingCard';
import { UpdatesCard } from './UpdatesCard';
import { CommandLineCard } from './CommandLineCard';
import './settings.css';
import { LogFileNote } from './LogFileNote';
import { MediaToolsInUse } from './MediaToolsInUse';
import { AgentCommands } from './AgentCommands';
import { ConnectionCard } from './ConnectionCard';
import { PreferencesCard } from './PreferencesCard';
import { hrefOf } from '../../app/router';
import { patchOf, toDraft, type Draft } from './settings-draft';
import { SettingsCard } from './SettingsCard';
import { LoadGate } from '../../components/LoadGate';
import { LabeledField, TextField, TextInput } from '../../components/Field';

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

export function SettingsScreen() {
  const { settings, saving, load, update, listen } = useSettingsStore(
    useShallow((s) => pick(s, 'settings', 'saving', 'load', 'update', 'listen')),
  );
  useEffect(() => {
    void load();
    return listen();
  }, [load, listen]);

  return (
    <div className="page">
      <PageHeader
        title="Settings"
        subtitle="How Postdesk shows dates and looks, where it connects, how its executor runs automations, and how it updates."
      />
      {settings.data ? <PreferencesCard settings={settings.data} /> : null}
      <ConnectionCard />
      <LoadGate state={settings} what="settings" onRetry={load}>
        {settings.data ? (
          <SettingsForm
            // A change from elsewhere resets the draft; the switches saved at once (updates) do not.
            key={JSON.stringify(toDraft(settings.data))}
            settings={settings.data}
            saving={saving}
            update={update}
          />
        ) : null}
      </LoadGate>
      <ExecutorFiguresCard />
      <UpcomingCard />
      <UpdatesCard settings={settings.data} />
      <AssistantPoliciesCard chosen={settings.data?.assistant_tool_policies ?? null} />
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
    <TextField
      id={`settings-${key}`}

      label={label}
      hint={fieldErrors[key] ? <span className="field__error">{fieldErrors[key]}</span> : hint}
      type={type}
      value={draft[key]}
      placeholder={effective}
      onValue={(v) => set(key, v)}
      aria-invalid={Boolean(fieldErrors[key])}
      aria-describedby={`settings-${key}-hint`}
    />
  );

  return (
    <form className="form-stack" onSubmit={(e) => void onSubmit(e)} aria-label="Settings">
      <SettingsCard id="service" title="Service" body="form-grid">
        {text('base_url', 'Base URL', 'Every request goes here.')}
        {text('alias_url', 'Alias URL', 'The fallback host serving the same paths. Optional.')}
        {text('proxy_url', 'Proxy', 'An HTTP(S) proxy for all requests. Optional.')}
      </SettingsCard>

      <SettingsCard id="executor" title="Executor" body="form-stack">
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
          <LabeledField id="settings-concurrency" label="Concurrent runs">
            <TextInput
              id="settings-concurrency"
              type="number"
              min={1}
              max={16}
              value={draft.concurrency}
              onValue={(v) => set('concurrency', v)}
              aria-invalid={Boolean(fieldErrors.concurrency)}
            />
            <span className="field__hint">
              {fieldErrors.concurrency ? (
                <span className="field__error">{fieldErrors.concurrency}</span>
              ) : (
                'How many automations may run at once (1–16).'
              )}
            </span>
          </LabeledField>
        </div>
        <fieldset className="choice-group">
          <legend className="field__label">When runs were missed (sleep, off, offline)</legend>
          {POLICIES.map((p) => (
            <label key={p.value} className="choice policy">
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
          <TextField
            id="settings-grace"

            label="Grace window (minutes)"
            hint={
              fieldErrors.grace_window_minutes ? (
                <span className="field__error">{fieldErrors.grace_window_minutes}</span>
              ) : (
                'With “Run the latest”, how late a missed run may still start; an older one is recorded as missed (0–1440).'
              )
            }
            type="number"
            min={0}
            max={24 * 60}
            value={draft.grace_window_minutes}
            onValue={(v) => set('grace_window_minutes', v)}
            aria-invalid={Boolean(fieldErrors.grace_window_minutes)}
            aria-describedby="settings-grace-hint"
          />
        </div>
        <AgentCommands
          value={draft.agent_commands}
          onChange={(v) => set('agent_commands', v)}
          error={fieldErrors.agent_commands ?? null}
        />
        <p className="field__hint">
          Postdesk asks you to confirm a change to agent commands or media tools outside this window before it
          saves it: these decide which programs run. Which agent runs each automation, and the folder it
          publishes from, are set beside that automation on the <a href="#/automations">Automations</a>{' '}
          screen.
        </p>
      </SettingsCard>

      <SettingsCard id="media" title="Media tools" body="form-grid">
        {text(
          'ffmpeg_path',
          'ffmpeg',
          'The ffmpeg program to use. Empty: Postdesk picks one, shown below (a system build of 5.1 or newer first).',
          'text',
        )}
        {text(
          'ffprobe_path',
          'ffprobe',
          'The ffprobe program to use. Empty: Postdesk picks one, shown below.',
          'text',
        )}
        <MediaToolsInUse />
      </SettingsCard>

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
      Postdesk {info.version} · {info.host === 'web' ? 'browser window' : 'desktop app'} · {info.platform}
    </p>
  );
}

/** Where the AI assistant's tool policies are set (the AI assistant screen), and how many are not the default. */
function AssistantPoliciesCard({ chosen }: { readonly chosen: Readonly<Record<string, string>> | null }) {
  const changed = chosen ? Object.keys(chosen).length : 0;
  return (
    <SettingsCard id="assistant" title="AI assistant">
      <p className="muted">
        Through <code>postdesk mcp</code>, an assistant may read at once, and asks you in the Inbox before it
        creates, schedules, publishes, updates or deletes anything.{' '}
        {changed === 0
          ? 'Every tool has its default policy.'
          : `${changed === 1 ? '1 tool has' : `${changed} tools have`} a policy of your own.`}
      </p>
      <a href={hrefOf('assistant')}>Tool policies, setup and activity</a>
    </SettingsCard>
  );
}
