import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolPolicy } from '../../../src-shared/assistant';
import { DRY_RUN_ARG, isReadingTool, toolPolicyOf } from '../../../src-shared/assistant';
import { gateCall } from '../../core/assistant/gate';
import type { AssistantLedger } from '../../core/assistant/proposals';
import { VERSION } from '../version';
import type { ServiceTools } from '../../core/assistant/service-tools';

const POLICY_NOTE: Readonly<Record<ToolPolicy, string>> = {
  allow: '',
  ask: ' Postdesk asks the person first: the call becomes a proposal that waits for approval in Postdesk.',
  deny: ' Turned off in Postdesk: calls are refused.',
};

/** A service tool as this server lists it: writing tools take `dry_run`, and say what their policy does. */
function listed(tool: Tool, policy: ToolPolicy): Tool {
  const description = `${tool.description ?? ''}${POLICY_NOTE[policy]}`.trim();
  if (isReadingTool(tool.name)) return { ...tool, description };
  const schema = tool.inputSchema;
  return {
    ...tool,
    description,
    inputSchema: {
      ...schema,
      properties: {
        ...schema.properties,
        [DRY_RUN_ARG]: {
          type: 'boolean',
          description: 'true: answer what would be sent to the service, and send nothing.',
        },
      },
    },
  };
}

/**
 * The MCP server of `postdesk mcp` on stdin/stdout: the service's tools, each call through the gate (its
 * policy, proposals, activity). Resolves when the client closes the connection.
 */
export async function serveStdio(deps: {
  stdin: Readable;
  stdout: Writable;
  service: ServiceTools;
  ledger: AssistantLedger;
  policies: () => Readonly<Record<string, ToolPolicy>>;
}): Promise<void> {
  const server = new Server({ name: 'postdesk', version: VERSION }, { capabilities: { tools: {} } });
  const known = new Map(deps.service.tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => {
    const policies = deps.policies();
    return { tools: deps.service.tools.map((t) => listed(t, toolPolicyOf(t.name, policies))) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    if (!known.has(name)) {
      return { content: [{ type: 'text', text: `There is no tool ${name}.` }], isError: true };
    }
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const answer = await gateCall(
      { ledger: deps.ledger, policies: deps.policies, send: deps.service.send },
      name,
      args,
    );
    return { content: [{ type: 'text', text: answer.text }], isError: answer.isError };
  });
  const transport = new StdioServerTransport(deps.stdin, deps.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    // The client quitting closes our stdin: that is the end of the session.
    deps.stdin.once('end', () => resolve());
    deps.stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
