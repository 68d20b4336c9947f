import { useEffect, useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import type { ToolPolicy } from '../../../../src-shared/assistant';
import { TOOL_POLICIES } from '../../../../src-shared/assistant';
import type { BridgeError } from '../../../../src-shared/ipc';
import { formatDateTime } from '../../app/format';
import { hrefOf } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { Segmented } from '../../components/Segmented';
import { EmptyState, ErrorAlert } from '../../components/states';
import { useAssistantStore } from '../../stores/use-assistant-store';
import { useSettingsStore } from '../../stores/use-settings-store';
import { toast } from '../../stores/use-toast-store';
import { CLIENTS, CLIENT_NAMES, setupFor, type ClientId, type Way } from './setups';
import './assistant.css';
import { LoadGate } from '../../components/LoadGate';
import { DataTable } from '../../components/DataTable';

const copy = (text: string, what: string) =>
  void navigator.clipboard
    .writeText(text)
    .then(() => toast('success', `Copied ${what}.`))
    .catch(() => toast('warning', 'The clipboard is not available here; select the text instead.'));

const POLICY_WORDS: Readonly<Record<ToolPolicy, string>> = {
  allow: 'Allow',
  ask: 'Ask me first',
  deny: 'Deny',
};

const OUTCOME_WORDS: Readonly<Record<string, string>> = {
  sent: 'Sent',
  failed: 'Failed',
  proposed: 'Waiting for you',
  waiting: 'Asked again, still waiting',
  already_sent: 'Asked again, already sent',
  rejected: 'Rejected',
  denied: 'Refused (denied)',
  dry_run: 'Dry run, nothing sent',
};

/**
 * Connect an AI assistant (docs/mcp.md): the MCP address and copy-ready setups for each client, the two ways
 * in; for the sandbox, a test of the whole OAuth flow; what each tool may do through `postdesk mcp`; and
 * every call an assistant made, with its outcome.
 */
export function AssistantScreen() {
  const s = useAssistantStore(
    useShallow((x) =>
      pick(
        x,
        'connection',
        'test',
        'tools',
        'activity',
        'loadConnection',
        'loadTools',
        'loadActivity',
        'runTest',
        'listen',
      ),
    ),
  );
  const { loadConnection, loadTools, loadActivity, listen } = s;
  useEffect(() => {
    void loadConnection();
    void loadTools();
    void loadActivity();
    return listen();
  }, [loadConnection, loadTools, loadActivity, listen]);

  return (
    <div className="page">
      <PageHeader
        title="AI assistant"
        subtitle="Let Claude, Cursor, VS Code or Codex work with your posts, and decide what it may do without you."
      />
      <ConnectCard />
      <PoliciesCard />
      <ActivityCard />
    </div>
  );
}

function ConnectCard() {
  const { connection, test, runTest } = useAssistantStore(
    useShallow((x) => ({ connection: x.connection, test: x.test, runTest: x.runTest })),
  );
  const [client, setClient] = useState<ClientId>('claude-desktop');
  const [way, setWay] = useState<Way>('stdio');
  const titleId = useId();
  const url = connection.data?.mcp_url ?? null;
  const setup = setupFor(client, way, url ?? 'https://your-service.example/api/mcp');
  return (
    <section className="card assistant__card" aria-labelledby={titleId}>
      <h2 id={titleId}>Connect an AI assistant</h2>
      {connection.error ? (
        <ErrorAlert error={connection.error} title="Could not read the connection" />
      ) : null}
      <div className="assistant__address">
        <span className="field__label">MCP address</span>
        {url ? (
          <>
            <code className="assistant__code">{url}</code>
            <button type="button" className="btn btn--small" onClick={() => copy(url, 'the MCP address')}>
              Copy address
            </button>
          </>
        ) : (
          <span className="muted">
            Connect to the service (or try offline) first: <a href={hrefOf('settings')}>Settings</a>
          </span>
        )}
      </div>
      <Segmented<Way>
        label="How the assistant connects"
        value={way}
        options={[
          { value: 'stdio', label: 'Through Postdesk (asks before it publishes)' },
          { value: 'oauth', label: 'Directly, signing in with OAuth' },
        ]}
        onChange={setWay}
      />
      <p className="muted">
        {way === 'stdio'
          ? 'Your assistant starts postdesk mcp, which uses the API key in your keychain. Each tool is allowed, asked or denied as set below.'
          : 'Your assistant connects to the address above and asks you to allow it on a sign-in page. It can then use every tool at once.'}
      </p>
      <Segmented<ClientId>
        label="Your AI client"
        value={client}
        options={CLIENTS.map((c) => ({ value: c, label: CLIENT_NAMES[c] }))}
        onChange={setClient}
      />
      <div className="assistant__setup">
        <p>{setup.where}</p>
        <pre className="assistant__code assistant__snippet" aria-label={`Setup for ${CLIENT_NAMES[client]}`}>
          {setup.text}
        </pre>
        <div className="btn-row">
          <button type="button" className="btn btn--small" onClick={() => copy(setup.text, 'the setup')}>
            Copy setup
          </button>
        </div>
        <p className="muted">{setup.then}</p>
      </div>
      {connection.data?.offline ? (
        <div className="assistant__test">
          <div className="btn-row">
            <button
              type="button"
              className="btn btn--primary"
              disabled={test.loading}
              onClick={() => void runTest()}
            >
              {test.loading ? 'Testing…' : 'Test the connection'}
            </button>
            <span className="muted">
              Signs in to the sandbox as an AI client would (OAuth), then lists its tools.
            </span>
          </div>
          {test.error ? <ErrorAlert error={test.error} title="The test could not run" /> : null}
          {test.data ? (
            <div role="status" aria-label="Connection test result">
              <p className={test.data.ok ? 'assistant__ok' : 'assistant__bad'}>
                {test.data.ok
                  ? `Connected: ${test.data.tools.length} tools.`
                  : `Not connected: ${test.data.error ?? ''}`}
              </p>
              <ol className="assistant__steps">
                {test.data.steps.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ol>
              {test.data.tools.length > 0 ? (
                <ul className="list-chips assistant__tools" aria-label="Tools the assistant sees">
                  {test.data.tools.map((t) => (
                    <li key={t}>
                      <code>{t}</code>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function PoliciesCard() {
  const { tools, loadTools } = useAssistantStore(
    useShallow((x) => ({ tools: x.tools, loadTools: x.loadTools })),
  );
  const { settings, update, load } = useSettingsStore(
    useShallow((x) => ({ settings: x.settings, update: x.update, load: x.load })),
  );
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const titleId = useId();
  useEffect(() => {
    void load();
  }, [load]);
  const chosen = settings.data?.assistant_tool_policies ?? {};
  const change = async (tool: string, policy: ToolPolicy | 'default') => {
    setError(null);
    const next: Record<string, ToolPolicy> = { ...chosen };
    if (policy === 'default') delete next[tool];
    else next[tool] = policy;
    const r = await update({ assistant_tool_policies: next });
    if (!r.ok) setError(r.error);
    void loadTools();
  };
  const list = tools.data?.tools ?? [];
  return (
    <section className="card assistant__card" aria-labelledby={titleId}>
      <h2 id={titleId}>What it may do through Postdesk</h2>
      <p className="muted">
        Reading tools are allowed; tools that create, schedule, publish, update or delete ask you first, in
        the Inbox. Also: <code>postdesk config set assistantToolPolicies</code>.
      </p>
      {error ? <ErrorAlert error={error} title="Not changed" /> : null}
      <LoadGate state={tools} what="the tools" onRetry={loadTools}>
        {list.length === 0 ? (
          <EmptyState title="No tools seen yet">
            The tools are listed once your assistant has started postdesk mcp.
          </EmptyState>
        ) : (
          <DataTable className="assistant__policies" columns={['Tool', 'Policy']}>
            {list.map((t) => (
              <tr key={t.name}>
                <th scope="row">
                  <code>{t.name}</code> <span className="muted">{t.reading ? 'reads' : 'writes'}</span>
                </th>
                <td>
                  <select
                    className="input"
                    aria-label={`Policy of ${t.name}`}
                    value={t.chosen ? t.policy : 'default'}
                    onChange={(e) => void change(t.name, e.target.value as ToolPolicy | 'default')}
                  >
                    <option value="default">Default ({POLICY_WORDS[t.reading ? 'allow' : 'ask']})</option>
                    {TOOL_POLICIES.map((p) => (
                      <option key={p} value={p}>
                        {POLICY_WORDS[p]}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </LoadGate>
    </section>
  );
}

function ActivityCard() {
  const { activity, loadActivity } = useAssistantStore(
    useShallow((x) => ({ activity: x.activity, loadActivity: x.loadActivity })),
  );
  const titleId = useId();
  const list = activity.data?.activity ?? [];
  return (
    <section className="card assistant__card" aria-labelledby={titleId}>
      <h2 id={titleId}>Activity</h2>
      <LoadGate state={activity} what="the activity" onRetry={loadActivity}>
        {list.length === 0 ? (
          <EmptyState title="No calls yet">
            Every call your assistant makes through Postdesk is listed here.
          </EmptyState>
        ) : (
          <DataTable columns={['When', 'Tool', 'Outcome']}>
            {list.map((a) => (
              <tr key={a.id}>
                <td title={a.at}>{formatDateTime(a.at)}</td>
                <td>
                  <code>{a.tool}</code>
                </td>
                <td>{OUTCOME_WORDS[a.outcome] ?? a.outcome}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </LoadGate>
    </section>
  );
}
