import { useEffect, useId, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AutomationView, BridgeError, SettingsPatch, SettingsView } from '../../../../src-shared/ipc';
import { agentOf } from '../../../../src-shared/settings';
import { plainName } from '../../app/bidi';
import { ErrorAlert } from '../../components/states';
import { useConnectionStore } from '../../stores/use-connection-store';
import { useSettingsStore } from '../../stores/use-settings-store';
import { toast } from '../../stores/use-toast-store';
import { LabeledField, TextField } from '../../components/Field';

/** A person's name for an agent type. */
export function agentLabel(type: string | null): string {
  if (type === 'card') return 'Caption card (built in)';
  if (type === 'folder') return 'Folder agent (built in)';
  return type === null ? 'one of several agent commands (choose one)' : `Agent command “${type}”`;
}

const byId = <K extends string>(list: readonly ({ automation_id: string } & Record<K, string>)[], key: K) =>
  Object.fromEntries(list.map((e) => [e.automation_id, e[key]])) as Record<string, string>;

/**
 * How this computer runs an automation: which agent, and the folder agent's folder. Both are the user's own,
 * local choices (the `automation_agents` and `automation_folders` settings), never the service's; a change
 * is applied once the user confirms it outside the page, as every change to what Postdesk runs.
 */
export function LocalSetup({ automation }: { readonly automation: AutomationView }) {
  const { settings, load, update, saving } = useSettingsStore(
    useShallow((s) => ({ settings: s.settings, load: s.load, update: s.update, saving: s.saving })),
  );
  const offline = useConnectionStore((s) => s.status?.offline ?? false);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!settings.data && !settings.loading && !settings.error) void load();
  }, [settings.data, settings.loading, settings.error, load]);
  const s = settings.data;
  if (!s) return null;
  const agents = byId(s.automation_agents, 'agent_type');
  const folders = byId(s.automation_folders, 'folder');
  const commands = s.agent_commands.map((c) => c.agent_type);
  const runs = agentOf(automation.id, { agents, folders, commands, demo: offline });
  const folder = folders[automation.id] ?? null;
  const name = plainName(automation.name);
  return (
    <div className="local-setup">
      <p className="local-setup__facts">
        <span className="faint">On this computer:</span> {agentLabel(runs.type)}
        {runs.source === 'demo' ? <span className="faint"> (the offline demo’s default)</span> : null}
        {runs.type === 'folder' || folder ? (
          <>
            {' · '}
            {folder ? <code>{folder}</code> : <span className="local-setup__missing">no folder chosen</span>}
          </>
        ) : null}{' '}
        {open ? null : (
          <button
            type="button"
            className="btn btn--small btn--ghost"
            aria-label={`Change how this computer runs ${name}`}
            onClick={() => setOpen(true)}
          >
            Change
          </button>
        )}
      </p>
      {open ? (
        <LocalSetupForm
          automationId={automation.id}
          name={name}
          settings={s}
          chosen={agents[automation.id] ?? ''}
          folder={folder ?? ''}
          saving={saving}
          update={update}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </div>
  );
}

function LocalSetupForm({
  automationId,
  name,
  settings,
  chosen,
  folder,
  saving,
  update,
  onClose,
}: {
  readonly automationId: string;
  readonly name: string;
  readonly settings: SettingsView;
  readonly chosen: string;
  readonly folder: string;
  readonly saving: boolean;
  readonly update: ReturnType<typeof useSettingsStore.getState>['update'];
  readonly onClose: () => void;
}) {
  const id = useId();
  const [agent, setAgent] = useState(chosen);
  const [path, setPath] = useState(folder);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const patch: Record<string, unknown> = {};
    if (agent !== chosen) {
      const others = settings.automation_agents.filter((a) => a.automation_id !== automationId);
      patch.automation_agents = agent
        ? [...others, { automation_id: automationId, agent_type: agent }]
        : others;
    }
    if (path.trim() !== folder) {
      const others = settings.automation_folders.filter((f) => f.automation_id !== automationId);
      patch.automation_folders = path.trim()
        ? [...others, { automation_id: automationId, folder: path.trim() }]
        : others;
    }
    if (Object.keys(patch).length === 0) return onClose();
    setError(null);
    const r = await update(patch as SettingsPatch);
    if (!r.ok) return setError(r.error);
    toast('success', `${name} runs with the new choice from its next run.`);
    onClose();
  };
  return (
    <form
      className="local-setup__form"
      onSubmit={(e) => void onSubmit(e)}
      aria-label={`How this computer runs ${name}`}
    >
      <LabeledField id={`${id}-agent`} label="Agent">
        <select
          id={`${id}-agent`}
          className="select"
          value={agent}
          onChange={(e) => setAgent(e.target.value)}
        >
          <option value="">The executor’s own agent</option>
          <option value="card">Caption card (built in): draws a card, needs nothing set up</option>
          <option value="folder">Folder agent (built in): publishes the next file of a folder</option>
          {settings.agent_commands.map((c) => (
            <option key={c.agent_type} value={c.agent_type}>
              Agent command “{c.agent_type}”
            </option>
          ))}
        </select>
      </LabeledField>
      <TextField
        id={`${id}-folder`}

        label="Folder"
        hint="What the folder agent publishes from, and what an agent command gets as its folder. Only you choose it, on this computer."
        className="mono"
        placeholder="~/Postdesk/clips"
        value={path}
        onValue={setPath}
        aria-describedby={`${id}-folder-hint`}
      />
      {error ? <ErrorAlert error={error} title="Not changed" /> : null}
      <p className="field__hint">
        Postdesk asks you to confirm this outside this window before it applies it: it decides which program
        runs and which files are published.
      </p>
      <div className="btn-row">
        <button type="submit" className="btn btn--small btn--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="btn btn--small" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
