import type { Command } from 'commander';
import { ApiError, NetworkError, CredentialMissingError } from '../../core/api/errors';
import { errorText } from '../../core/common/error-text';
import { OPEN_OUTBOX_STATES } from '../../core/outbox/outbox';
import { appLogFile, desktopDataDir, storeFile } from '../../core/paths';
import type { CliDeps } from '../context';
import { exitCodeFor, inUserWords } from '../exit-codes';

export function registerStatusCommand(program: Command, deps: CliDeps): void {
  program
    .command('status')
    .description('where Postdesk points, where the key comes from, and whether the service answers')
    .action(async (_opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd, { replay: false });
      let keySource: string;
      try {
        keySource = await core.apiKeySource();
      } catch (err) {
        keySource = `unavailable (${errorText(err)})`;
      }
      let service: { ok: boolean; accounts?: number; ms?: number; error?: string };
      let failure: unknown = null;
      const t0 = performance.now();
      try {
        const { accounts } = await out.spin('asking the service', () => core.client.listAccounts());
        service = { ok: true, accounts: accounts.length, ms: Math.round(performance.now() - t0) };
      } catch (err) {
        if (!(
          err instanceof ApiError ||
          err instanceof NetworkError ||
          err instanceof CredentialMissingError
        ))
          throw err;
        failure = err;
        service = { ok: false, error: err.message };
      }
      const outbox = core.outbox.list({ states: OPEN_OUTBOX_STATES });
      const byState: Record<string, number> = {};
      for (const e of outbox) byState[e.state] = (byState[e.state] ?? 0) + 1;
      const data = {
        base_url: core.endpoint.baseUrl,
        alias_url: core.endpoint.aliasUrl,
        sandbox: core.endpoint.sandbox,
        data_dir: core.dataDir,
        store: storeFile(core.dataDir),
        // This command logs to stderr with --verbose; the desktop app keeps a rotating file.
        log: { cli: 'stderr, with --verbose', desktop_file: appLogFile(desktopDataDir(deps.io.env)) },
        api_key_source: keySource,
        service,
        outbox: byState,
      };
      out.result(data, () => {
        const c = out.colors;
        out.fields([
          ['service', core.endpoint.baseUrl],
          ['alias', core.endpoint.aliasUrl],
          [
            'sandbox',
            core.endpoint.sandbox
              ? `${core.endpoint.sandbox.reused ? 'reused' : 'started in this process'} (pid ${core.endpoint.sandbox.pid})`
              : 'no',
          ],
          ['data dir', core.dataDir],
          ['log', `stderr with --verbose; the desktop app's: ${data.log.desktop_file}`],
          ['api key', keySource],
          [
            'reachable',
            service.ok
              ? c.green(`yes, ${service.accounts} accounts in ${service.ms} ms`)
              : c.red(`no: ${inUserWords(service.error ?? '')}`),
          ],
          [
            'outbox',
            Object.keys(byState).length
              ? Object.entries(byState)
                  .map(([k, v]) => `${v} ${k}`)
                  .join(', ')
              : 'empty',
          ],
        ]);
      });
      if (failure) deps.setExitCode(exitCodeFor(failure));
    });
}
