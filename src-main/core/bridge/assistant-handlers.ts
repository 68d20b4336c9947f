import type { ToolPolicy } from '../../../src-shared/assistant';
import { isReadingTool, toolPolicyOf } from '../../../src-shared/assistant';
import { sendApproved } from '../assistant/gate';
import { AssistantLedger, ProposalDecidedError, ProposalNotFoundError } from '../assistant/proposals';
import type { Store } from '../store/store';
import { BridgeFault, notConnected, toBridgeError } from './bridge-fault';
import type { BridgeEvents } from './events';
import type { Handlers } from './handler-types';

export interface AssistantHandlerDeps {
  readonly store: Pick<Store, 'db' | 'migrate'>;
  /** The service's address and key for its MCP server (the session's); null when not connected. */
  readonly access: () => Promise<{ baseUrl: string; apiKey: string; offline: boolean } | null>;
  readonly policies: () => Readonly<Record<string, ToolPolicy>>;
  readonly version: string;
  readonly events: BridgeEvents;
}

const MCP_PATH = '/api/mcp';

/**
 * `assistant:*`: AI assistants' proposals made through `postdesk mcp` (core/assistant), decided from the
 * Inbox; the activity; the tools and their policies; the MCP address and, for the sandbox, the connection
 * test. Approving sends the call at once, exactly once, through the service's MCP server (the SDK is loaded
 * then, by `import()`).
 */
export function createAssistantHandlers(deps: AssistantHandlerDeps): Handlers['assistant'] {
  let ledger: AssistantLedger | null = null;
  const book = (): AssistantLedger => (ledger ??= new AssistantLedger(deps.store));
  const changed = () => deps.events.emit('assistant:didChange', { waiting: book().list(['pending']).length });
  const decide = (id: string, decision: 'approved' | 'rejected') => {
    try {
      return book().decide(id, decision);
    } catch (e) {
      if (e instanceof ProposalNotFoundError) throw new BridgeFault('not_found', 'That proposal is gone.');
      if (e instanceof ProposalDecidedError)
        throw new BridgeFault('invalid_input', 'That proposal was already decided.');
      throw e;
    }
  };
  return {
    proposals: async ({ all }) => ({ proposals: book().list(all ? undefined : ['pending']) }),
    approve: async ({ id }) => {
      const approved = decide(id, 'approved');
      const access = await deps.access();
      if (!access) {
        changed();
        // Approved, kept: `postdesk mcp` sends it when the assistant calls again.
        return { proposal: approved, error: toBridgeError(notConnected()) };
      }
      const { connectServiceTools } = await import('../assistant/service-tools');
      let sent = approved;
      try {
        const service = await connectServiceTools(access.baseUrl, access.apiKey, deps.version);
        try {
          sent = await sendApproved(book(), approved, service.send);
        } finally {
          await service.close();
        }
      } catch (e) {
        changed();
        return { proposal: book().get(id) ?? approved, error: toBridgeError(e) };
      }
      changed();
      const error =
        sent.state === 'sent'
          ? null
          : toBridgeError(
              new BridgeFault('unavailable', `The service refused it: ${sent.result ?? sent.state}`),
            );
      return { proposal: sent, error };
    },
    reject: async ({ id }) => {
      const rejected = decide(id, 'rejected');
      book().note(rejected.tool, 'rejected', 'rejected by the person', rejected.id);
      changed();
      return { proposal: rejected, error: null };
    },
    activity: async ({ limit }) => ({ activity: book().activity(limit ?? 200) }),
    tools: async () => {
      const chosen = deps.policies();
      const names = [...new Set([...book().tools(), ...Object.keys(chosen)])].sort();
      return {
        tools: names.map((name) => ({
          name,
          reading: isReadingTool(name),
          policy: toolPolicyOf(name, chosen),
          chosen: Object.hasOwn(chosen, name),
        })),
      };
    },
    connection: async () => {
      const access = await deps.access();
      return {
        mcp_url: access ? new URL(MCP_PATH, access.baseUrl).href : null,
        offline: access?.offline ?? false,
      };
    },
    test: async () => {
      const access = await deps.access();
      if (!access) throw notConnected();
      if (!access.offline) {
        throw new BridgeFault(
          'invalid_input',
          'The connection test runs against the offline sandbox; with the service, connect your assistant and sign in there.',
        );
      }
      const { testAssistantConnection } = await import('../assistant/connection-test');
      return testAssistantConnection(new URL(MCP_PATH, access.baseUrl).href, access.apiKey, deps.version);
    },
  };
}
