import { InvalidArgumentError, type Command } from 'commander';
import type { CliDeps } from '../context';
import { startSandboxInProcess } from '../sandbox-connect';
import { VERSION } from '../version';
import { startWeb } from '../web/run-web';
import { terminalConfirm } from '../web/terminal-confirm';

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is 0 to 65535');
  return n;
}

export function registerWebCommand(program: Command, deps: CliDeps): void {
  program
    .command('web')
    .description(
      'serve the Postdesk UI to your browser on 127.0.0.1 (with --sandbox: against a fresh offline sandbox)',
    )
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', parsePort, 0)
    .option('--no-open', 'print the address without opening a browser')
    .option('--data <dir>', 'with --sandbox: keep its data here instead of a temporary directory')
    .option('--executor', 'run automations here (the default with --sandbox)')
    .option('--no-executor', 'do not run automations here')
    .addHelpText(
      'after',
      '\nThe printed address carries a secret made for this launch; only a page opened with it can use Postdesk.\n' +
        'A change the page makes to what Postdesk runs (agent commands, ffmpeg paths, automation folders) or\n' +
        'where it connects (a new service address) is asked here first when this is a terminal; otherwise\n' +
        'make it with `postdesk config set`.',
    )
    .action(
      async (opts: { port: number; open: boolean; data?: string; executor?: boolean }, cmd: Command) => {
        const { sandbox } = deps.globals(cmd);
        const print = (line: string) => void deps.io.stdout.write(`${line}\n`);
        const running = await startWeb({
          sandbox,
          port: opts.port,
          open: opts.open && !deps.io.env.CI,
          ...(opts.executor !== undefined ? { executor: opts.executor } : {}),
          dataDir: sandbox ? opts.data : deps.dataDir,
          env: deps.io.env,
          version: VERSION,
          startSandbox: startSandboxInProcess,
          print,
          log: deps.log,
          // Only a person at this terminal may confirm a page's change to what Postdesk runs.
          ...(deps.io.stdin.isTTY
            ? { confirm: terminalConfirm({ input: deps.io.stdin, output: deps.io.stdout }) }
            : {}),
        });
        await new Promise<void>((resolve) => {
          const stop = () => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            resolve();
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
        });
        await running.close();
      },
    );
}
