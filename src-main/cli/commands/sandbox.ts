import type { Command } from 'commander';
import type { CliDeps } from '../context';
import { scrubForTerminal } from '../output';

export function registerSandboxCommand(program: Command, deps: CliDeps): void {
  program
    .command('sandbox')
    .description(
      'run the offline sandbox in the foreground (same as `npm run sandbox`; --port, --host, --data, --seed)',
    )
    .helpOption(false)
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .argument('[args...]', 'passed to the sandbox')
    .action(async (args: string[]) => {
      const { runSandboxCli } = await import('../../../src-sandbox/main');
      const code = await runSandboxCli(args, {
        writeErr: (t) => deps.io.stderr.write(scrubForTerminal(t)),
      });
      if (typeof code === 'number') deps.setExitCode(code);
    });
}
