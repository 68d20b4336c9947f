/**
 * Copy-ready setups for each AI client, the two ways in (docs/mcp.md): the service's MCP server over OAuth,
 * or `postdesk mcp` over stdio. One table, so the screen and the docs say the same.
 */
export const CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'codex'] as const;
export type ClientId = (typeof CLIENTS)[number];
export type Way = 'oauth' | 'stdio';

export const CLIENT_NAMES: Readonly<Record<ClientId, string>> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
  codex: 'Codex',
};

export interface Setup {
  /** Where it goes, in words. */
  readonly where: string;
  readonly text: string;
  /** What to do after, in words. */
  readonly then: string;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

export function setupFor(client: ClientId, way: Way, mcpUrl: string): Setup {
  const stdio = { command: 'postdesk', args: ['mcp'] };
  switch (client) {
    case 'claude-desktop':
      return way === 'oauth'
        ? {
            where: 'Settings → Connectors → Add custom connector: name Postdesk, and this URL',
            text: mcpUrl,
            then: 'Choose Connect, then Allow on the page that opens.',
          }
        : {
            where: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
            text: json({ mcpServers: { postdesk: stdio } }),
            then: 'Restart Claude Desktop. Use the full path of postdesk if it is not found.',
          };
    case 'claude-code':
      return way === 'oauth'
        ? {
            where: 'In a terminal',
            text: `claude mcp add --transport http postdesk ${mcpUrl}`,
            then: 'Then /mcp in a session, choose postdesk and Authenticate.',
          }
        : {
            where: 'In a terminal',
            text: 'claude mcp add postdesk -- postdesk mcp',
            then: 'Start a new session.',
          };
    case 'cursor':
      return {
        where: '~/.cursor/mcp.json (or .cursor/mcp.json in a project)',
        text: json({ mcpServers: { postdesk: way === 'oauth' ? { url: mcpUrl } : stdio } }),
        then: way === 'oauth' ? 'Cursor opens the sign-in page the first time.' : 'Reload Cursor.',
      };
    case 'vscode':
      return {
        where: '.vscode/mcp.json in your workspace',
        text: json({
          servers: {
            postdesk: way === 'oauth' ? { type: 'http', url: mcpUrl } : { type: 'stdio', ...stdio },
          },
        }),
        then:
          way === 'oauth'
            ? 'Start the server from the file; VS Code asks you to sign in.'
            : 'Start the server from the file.',
      };
    case 'codex':
      return {
        where: '~/.codex/config.toml',
        text:
          way === 'oauth'
            ? `[mcp_servers.postdesk]\nurl = "${mcpUrl}"`
            : `[mcp_servers.postdesk]\ncommand = "postdesk"\nargs = ["mcp"]`,
        then: way === 'oauth' ? 'Then run: codex mcp login postdesk' : 'Start a new Codex session.',
      };
  }
}
