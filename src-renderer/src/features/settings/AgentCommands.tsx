import type { Draft } from './settings-draft';
import { LabeledField, TextField } from '../../components/Field';

/** The program each agent type runs, edited as rows of text. */
export function AgentCommands({
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
    <fieldset className="choice-group">
      <legend className="field__label">Agent commands</legend>
      <p className="field__hint">The program each agent type runs, without a shell. One argument per line.</p>
      {value.map((c, i) => (
        <div key={i} className="agent-command" role="group" aria-label={`Agent command ${i + 1}`}>
          <TextField
            id={`agent-${i}-type`}
            label="Agent type"
            value={c.agent_type}
            onValue={(v) => edit(i, { agent_type: v })}
          />
          <TextField
            id={`agent-${i}-command`}
            label="Program"
            className="mono"
            value={c.command}
            onValue={(v) => edit(i, { command: v })}
          />
          <LabeledField id={`agent-${i}-args`} label="Arguments">
            <textarea
              id={`agent-${i}-args`}
              className="textarea mono agent-command__args"
              value={c.args}
              onChange={(e) => edit(i, { args: e.target.value })}
            />
          </LabeledField>
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
