import type { Automation } from '../../../src-shared/api/automations';
import {
  AUTOMATION_TOOLS,
  AutomationToolResult,
  type CreateAutomationInput,
  type UpdateAutomationInput,
} from '../../../src-shared/api/automation-editing';
import type { ConnectionStatus } from '../../../src-shared/ipc/connection';
import type { BridgeIssue } from '../../../src-shared/ipc/bridge-error';
import type { ApiClient } from '../api/client';
import { PostdeskError } from '../api/errors';
import { BridgeFault } from './bridge-fault';

/** What editing needs of the connection: where the service is, and a fetch that carries its key. */
export type McpCapableApi = Pick<ApiClient, 'baseUrl' | 'mcpFetch'>;

export interface AutomationEditingDeps {
  api(): Promise<McpCapableApi>;
  status(): Promise<ConnectionStatus>;
  readonly version: string;
}

export interface AutomationEditing {
  /** True on the sandbox (embedded, or one on this computer): the service edits in its dashboard. */
  available(): Promise<boolean>;
  create(input: Readonly<CreateAutomationInput>): Promise<Automation>;
  update(input: Readonly<UpdateAutomationInput>): Promise<Automation>;
  pause(id: string): Promise<Automation>;
  resume(id: string): Promise<Automation>;
  remove(id: string): Promise<Automation>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const isLoopbackUrl = (url: string | null): boolean => {
  if (!url) return false;
  try {
    return LOOPBACK.has(new URL(url).hostname);
  } catch {
    return false;
  }
};

/** The field of the form a sandbox message is about, from its `path:` prefix. */
const fieldOf = (path: string): string => path.split('.')[0] ?? '';

/** A sandbox refusal in words for a person, per field; no field paths, codes or ids. */
function wordsFor(path: string, message: string): string {
  if (path.startsWith('schedule')) {
    if (/time zone/.test(message))
      return 'That time zone is not known. Pick one such as Europe/Berlin or UTC.';
    if (/5 fields/.test(message))
      return 'A schedule has five parts: minute, hour, day of month, month and weekday (for example 0 9 * * 1-5).';
    return 'That schedule cannot be read. Check each of its five parts (for example 0 9 * * 1-5).';
  }
  if (path.startsWith('targets')) {
    if (/instagram only/.test(message)) return 'The legacy queue publishes to Instagram accounts only.';
    if (/not found/.test(message)) return 'One of the chosen accounts is no longer connected.';
    return 'One of the chosen accounts cannot be used for this automation.';
  }
  if (path === 'name') return 'Give the automation a name of at most 200 characters.';
  if (path === 'instructions') return 'The instructions are too long.';
  return 'The sandbox refused this automation.';
}

/** The `{error, code}` a tool answered, as a fault the form can show. */
function faultOf(answer: { error?: unknown; code?: unknown }): BridgeFault {
  const code = typeof answer.code === 'string' ? answer.code : undefined;
  const error = typeof answer.error === 'string' ? answer.error : '';
  if (code === 'VALIDATION_FAILED') {
    const issues: BridgeIssue[] = [];
    for (const part of error.split('; ')) {
      const at = part.indexOf(': ');
      const path = at > 0 ? part.slice(0, at) : '';
      const field = fieldOf(path);
      if (!issues.some((i) => i.path === field)) issues.push({ path: field, message: wordsFor(path, part) });
    }
    return new BridgeFault('invalid_input', issues.map((i) => i.message).join(' '), issues, {
      status: 400,
      code,
    });
  }
  if (code === 'AUTOMATION_REMOVED') {
    return new BridgeFault('api', 'This automation was removed; it can no longer be changed.', undefined, {
      status: 409,
      code,
    });
  }
  if (code === 'NOT_FOUND') return new BridgeFault('not_found', 'That automation no longer exists.');
  if (code === 'UNAUTHORIZED') {
    return new BridgeFault(
      'api',
      'The sandbox no longer accepts this connection’s key. Connect again.',
      undefined,
      {
        status: 401,
        code,
      },
    );
  }
  return new BridgeFault('api', 'The sandbox could not change this automation. Try again.', undefined, {
    ...(code ? { code } : {}),
  });
}

/**
 * Creating and editing automations from the Automations screen, through the sandbox's MCP tools: the same
 * path an agent takes, so the screen is checked by the sandbox exactly as an agent is. One short MCP session
 * per change (the sandbox's server is stateless). The key stays inside the API client (`mcpFetch`).
 */
export function createAutomationEditing(deps: AutomationEditingDeps): AutomationEditing {
  async function available(): Promise<boolean> {
    const s = await deps.status();
    return s.state === 'connected' && (s.offline || isLoopbackUrl(s.base_url));
  }

  async function call(tool: string, args: Record<string, unknown>): Promise<Automation> {
    if (!(await available())) {
      throw new BridgeFault(
        'unavailable',
        'Automations are created and edited in the service’s dashboard; here only in the offline sandbox.',
      );
    }
    const api = await deps.api();
    // The SDK loads on the first edit, not with the bridge (test/unit/lint/mcp-sdk-lazy.test.ts).
    const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
    const client = new Client({ name: 'postdesk', version: deps.version });
    const transport = new StreamableHTTPClientTransport(
      new URL(`${api.baseUrl.replace(/\/+$/, '')}/api/mcp`),
      {
        fetch: (url, init) => api.mcpFetch(url, init),
      },
    );
    let text: string;
    let isError: boolean;
    try {
      await client.connect(transport);
      const result = await client.callTool({ name: tool, arguments: args });
      const content = result.content as { type: string; text?: string }[];
      text = content[0]?.text ?? '';
      isError = result.isError === true;
    } catch (e) {
      // No key, or a refused address: the bridge's own errors say what to do.
      if (e instanceof BridgeFault || e instanceof PostdeskError) throw e;
      throw new BridgeFault('network', 'The sandbox could not be reached. Try again.');
    } finally {
      await client.close().catch(() => undefined);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // Only a schema refusal of the SDK answers plain text; the bridge checked the input already.
      throw new BridgeFault('internal', 'The sandbox did not understand this change.');
    }
    if (isError) throw faultOf(body as { error?: unknown; code?: unknown });
    const parsed = AutomationToolResult.safeParse(body);
    if (!parsed.success) throw new BridgeFault('internal', 'The sandbox answered in an unexpected shape.');
    return parsed.data.automation;
  }

  return {
    available,
    create: (input) => call(AUTOMATION_TOOLS.create, { ...input }),
    update: (input) => call(AUTOMATION_TOOLS.update, { ...input }),
    pause: (id) => call(AUTOMATION_TOOLS.pause, { id }),
    resume: (id) => call(AUTOMATION_TOOLS.resume, { id }),
    remove: (id) => call(AUTOMATION_TOOLS.remove, { id }),
  };
}
