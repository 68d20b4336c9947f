import { Command, CommanderError, Option } from 'commander';
import { COMMANDS } from './commands/index';
import { createDeps, globalsOf } from './context';
import { EXIT, errorJson, errorLines, exitCodeFor } from './exit-codes';
import { Output, scrubForTerminal, type CliIo } from './output';

export function buildProgram(io: CliIo): { program: Command; close(): Promise<void>; exitCode(): number } {
  const { deps, state } = createDeps(io);
  const program = new Command('postdesk')
    .description(
      'Postdesk: post, schedule and automate through the social publishing service, or its offline sandbox.',
    )
    .addOption(new Option('--json', 'print one JSON document on stdout (errors too), for machines'))
    .addOption(new Option('--base-url <url>', 'the service to talk to (overrides the saved setting)'))
    .addOption(
      new Option('--sandbox', 'use the local sandbox (kept in the data directory); starts it if needed'),
    )
    .addOption(
      new Option('--verbose', 'log what happens underneath (retries, failures ridden out) to stderr'),
    )
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 other failure, 2 bad input, 3 the service refused (API error), 4 network error.\n' +
        'Data directory: $POSTDESK_DATA_DIR, else the OS user data directory. API key: $POSTDESK_API_KEY, else the private file $POSTDESK_API_KEY_FILE names, else the keychain.',
    );
  program.configureOutput({
    // Usage errors repeat what was typed: shown, never obeyed, like everything else printed.
    writeOut: (s) => io.stdout.write(scrubForTerminal(s)),
    writeErr: (s) => io.stderr.write(scrubForTerminal(s)),
  });
  for (const register of COMMANDS) register(program, deps);
  program.hook('preAction', (_program, action) => state.setVerbose(globalsOf(action).verbose));
  // Every (sub)command reports usage errors by throwing, so the runner owns exit codes.
  const override = (c: Command): void => {
    c.exitOverride();
    c.commands.forEach(override);
  };
  override(program);
  return { program, close: () => state.close(), exitCode: () => state.exitCode };
}

/** Runs the CLI for these arguments (without `node` and the script) and returns the exit code. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const { program, close, exitCode } = buildProgram(io);
  const json = args.includes('--json');
  let code: number = EXIT.ok;
  try {
    await program.parseAsync([...args], { from: 'user' });
    code = exitCode();
  } catch (err) {
    code = exitCodeFor(err);
    if (err instanceof CommanderError) {
      // Commander already printed its message (or the help).
      if (json && code !== EXIT.ok) {
        new Output(io, true).json1({ error: { name: 'UsageError', message: err.message } });
      }
    } else {
      const out = new Output(io, json);
      if (json) out.json1(errorJson(err));
      else {
        const [first, ...rest] = errorLines(err);
        out.warn(`${out.colors.red('error:')} ${first ?? ''}`);
        for (const l of rest) out.warn(l);
      }
    }
  } finally {
    await close().catch(() => undefined);
  }
  return code;
}
