import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SendTool, ToolAnswer } from './gate';

/**
 * The service's own MCP server, reached with the API key as bearer: its tools, and a call to one. This module
 * loads the MCP SDK: it is only ever loaded by `import()` (`postdesk mcp`, `postdesk inbox approve`, the
 * bridge's approval), so nothing else pays for it, the executor least of all.
 */
export interface ServiceTools {
  readonly tools: readonly Tool[];
  readonly send: SendTool;
  close(): Promise<void>;
}

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? content
        .map((c: { type?: unknown; text?: unknown }) =>
          c.type === 'text' && typeof c.text === 'string' ? c.text : '',
        )
        .filter(Boolean)
        .join('\n')
    : '';

/**
 * Connects to `{baseUrl}/api/mcp` as the key's owner (the key comes from the keychain, as for every other
 * command) and lists the service's tools.
 */
export async function connectServiceTools(
  baseUrl: string,
  apiKey: string,
  version: string,
): Promise<ServiceTools> {
  const client = new Client({ name: 'postdesk', version });
  const url = new URL('/api/mcp', baseUrl);
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return {
    tools,
    async send(tool, args): Promise<ToolAnswer> {
      const result = await client.callTool({ name: tool, arguments: { ...args } });
      return { text: textOf(result.content), isError: result.isError === true };
    },
    close: () => client.close(),
  };
}
