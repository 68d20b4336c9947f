import type { Command } from 'commander';
import type { Readable, Writable } from 'node:stream';
import { CredentialMissingError } from '../../core/api/errors';
import { AssistantLedger } from '../../core/assistant/proposals';
import type { CliDeps } from '../context';
import { VERSION } from '../version';

/**
 * `postdesk mcp`: the MCP server a person's AI client starts (docs/mcp.md). It speaks MCP on stdin and
 * stdout, so it prints nothing there itself. The key comes the CLI's usual way (the keychain, or
 * POSTDESK_API_KEY), never from an argument, a URL or a file. The MCP SDK is loaded here, on use only.
 */
export function registerMcpCommand(program: Command, deps: CliDeps): void {
  program
    .command('mcp')
    .description(
      "an MCP server over stdio for your AI assistant: the service's tools, each allowed, asked or denied as Settings say (`postdesk config set assistantToolPolicies`)",
    )
    .action(async (_flags: unknown, self: Command) => {
      // No outbox replay: its notes would be written where the MCP messages go.
      const core = await deps.core(self, { replay: false });
      const apiKey = await core.apiKey();
      if (apiKey === null) {
        throw new CredentialMissingError('mcp', 'an API key', 'run `postdesk login` or set POSTDESK_API_KEY');
      }
      const [{ connectServiceTools }, { serveStdio }] = await Promise.all([
        import('../../core/assistant/service-tools'),
        import('../mcp/stdio-server'),
      ]);
      const service = await connectServiceTools(core.endpoint.baseUrl, apiKey, VERSION);
      const ledger = new AssistantLedger(core.store);
      // What the screens list policies for: the tools as the service offers them now.
      ledger.saveTools(service.tools.map((t) => t.name));
      try {
        await serveStdio({
          stdin: deps.io.stdin as unknown as Readable,
          stdout: deps.io.stdout as unknown as Writable,
          service,
          ledger,
          policies: () => core.settings.get().assistantToolPolicies,
        });
      } finally {
        await service.close();
      }
    });
}
