import { Command, CommanderError, Help, InvalidArgumentError, Option } from 'commander';
import { COMMANDS, type CommandEntry } from './commands/index';
import type { CliDeps, InvocationState } from './context';
import { EXIT, errorJson, errorLines, exitCodeFor } from './exit-codes';
import { Output, scrubForTerminal, type CliIo } from './output';
import { VERSION } from './version';

/** Global options that take a value: their value is never a command name. */
const GLOBALS_WITH_VALUE = new Set(['--base-url']);
/** Global options without a value. */
const GLOBAL_FLAGS = new Set(['--json', '--sandbox', '--verbose']);

/**
 * `--version` (or `-V`) with nothing but global options beside it (`--json --version`). Only then: commander's
 * global --version would swallow `skills show ID --version 1.0.0`.
 */
export function asksVersion(args: readonly string[]): boolean {
  let version = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--version' || a === '-V') version = true;
    else if (GLOBALS_WITH_VALUE.has(a)) i++;
    else if (!GLOBAL_FLAGS.has(a) && !a.startsWith('--base-url=')) return false;
  }
  return version;
}

/** The reader of our output went away (`postdesk … | head -1`): not a failure, as for git and ls. */
export const isBrokenPipe = (err: unknown): boolean =>
  (err as NodeJS.ErrnoException | null)?.code === 'EPIPE';

/**
 * The top-level commands these arguments run: the first word that is not an option (for `help <cmd>`, the word
 * after it). Only these are loaded; the others stay one-line stubs that serve `--help` and "did you mean".
 */
export function commandsToLoad(args: readonly string[]): CommandEntry[] {
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const a = args[i] as string;
    if (a === '--') {
      words.push(...args.slice(i + 1, i + 3));
      break;
    }
    if (a.startsWith('-')) {
      if (GLOBALS_WITH_VALUE.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  const [first, second] = words;
  const name = first === 'help' ? second : first;
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) return [];
  return entry.wantsTree ? [...COMMANDS] : [entry];
}

/** `--base-url`: checked here, so a typo is a usage error naming the flag rather than a failed request. */
function baseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('it must be an http:// or https:// address, e.g. https://service.example');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(`it must be an http:// or https:// address, not ${url.protocol}`);
  }
  return value;
}

/** What commander keeps to itself but this runner needs: its "did you mean" for an unknown command. */
type WithUnknownCommand = Command & { unknownCommand(): never };

/**
 * A word after a command that is not one of its subcommands is an error, with a suggestion: commander's own
 * (`posts shwo` → show), or the top-level command of that name (`media upload` → `postdesk upload`). Without this,
 * a command with a default subcommand (`posts` runs `posts list`) hands the word to that subcommand, which then
 * says "too many arguments for 'list'".
 */
function unknownSubcommand(cmd: Command, word: string): void {
  const root = ((c: Command): Command => {
    while (c.parent) c = c.parent;
    return c;
  })(cmd);
  if (cmd !== root && root.commands.some((c) => c.name() === word)) {
    const path = [];
    for (let c: Command | null = cmd; c; c = c.parent) path.unshift(c.name());
    cmd.error(
      `error: unknown command '${word}' for '${path.join(' ')}'\n(Did you mean ${root.name()} ${word}?)`,
      { code: 'commander.unknownCommand', exitCode: 1 },
    );
  }
  (cmd as WithUnknownCommand).unknownCommand();
}

/**
 * Usage checks in the order that helps: an unknown option (`--captoin`, "did you mean --caption?") before a missing
 * required one (which the misspelling caused). Commander checks required options first, so they are checked here,
 * after commander's own check of unknown options, just before the action runs.
 */
function checkRequiredAfterUnknown(cmd: Command): void {
  const required = cmd.options.filter((o) => o.mandatory);
  if (!required.length) return;
  for (const o of required) o.makeOptionMandatory(false);
  cmd.hook('preAction', (self, action) => {
    if (action !== self) return;
    for (const o of required) {
      if (self.getOptionValue(o.attributeName()) === undefined) {
        self.error(`error: required option '${o.flags}' not specified`, {
          code: 'commander.missingMandatoryOptionValue',
        });
      }
    }
  });
}

function strictSubcommands(cmd: Command): void {
  if (!cmd.commands.length) return;
  // A command whose subcommand is its default: the word reaches the default subcommand, so check it on the way.
  cmd.hook('preSubcommand', (self, sub) => {
    const first = self.args[0];
    if (
      first !== undefined &&
      !first.startsWith('-') &&
      first !== sub.name() &&
      !sub.aliases().includes(first)
    )
      unknownSubcommand(self, first);
  });
  // A command without a default: commander reports the word through this event when someone listens.
  cmd.on('command:*', (operands: string[]) => unknownSubcommand(cmd, operands[0] ?? ''));
}

const VERSION_OPTION = new Option('-V, --version', 'print the version');

function rootCommand(io: CliIo): Command {
  const program = new Command('postdesk')
    .description(
      'Postdesk: post, schedule and automate through the social publishing service, or its offline sandbox.',
    )
    .addOption(new Option('--json', 'print one JSON document on stdout (errors too), for machines'))
    .addOption(
      new Option('--base-url <url>', 'the service to talk to (overrides the saved setting)').argParser(
        baseUrl,
      ),
    )
    .addOption(
      new Option('--sandbox', 'use the local sandbox (kept in the data directory); starts it if needed'),
    )
    .addOption(
      new Option('--verbose', 'log what happens underneath (retries, failures ridden out) to stderr'),
    )
    .configureHelp({
      showGlobalOptions: true,
      sortSubcommands: false,
      // Listed like any option, though runCli answers it itself (see there) rather than commander.
      visibleOptions(cmd) {
        const options = Help.prototype.visibleOptions.call(this, cmd);
        return cmd.parent ? options : [VERSION_OPTION, ...options];
      },
    })
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
  return program;
}

export interface BuiltProgram {
  readonly program: Command;
  close(): Promise<void>;
  exitCode(): number;
  /** The long options (without `--`) of the command that ran: errors name fields by these flags. */
  flags(): ReadonlySet<string>;
}

/**
 * The command tree for these arguments: the commands they run fully registered, every other one as a stub with its
 * summary. `load: 'all'` registers every command (completion scripts, tests).
 */
export async function buildProgram(
  io: CliIo,
  args: readonly string[],
  opts: { load?: 'needed' | 'all' } = {},
): Promise<BuiltProgram> {
  const program = rootCommand(io);
  const wanted = new Set(opts.load === 'all' ? COMMANDS : commandsToLoad(args));
  let deps: CliDeps | null = null;
  let state: InvocationState = {
    exitCode: EXIT.ok,
    setVerbose: () => undefined,
    close: async () => undefined,
  };
  let action: Command | null = null;
  if (wanted.size > 0) {
    // The core (SQLite, keychain, HTTP client) loads only for a command that may use it.
    const { createDeps } = await import('./context');
    ({ deps, state } = createDeps(io));
  }
  const registered = await Promise.all(COMMANDS.map((c) => (wanted.has(c) ? c.load() : null)));
  COMMANDS.forEach((entry, i) => {
    const register = registered[i];
    if (register && deps) {
      register(program, deps);
      program.commands.at(-1)?.summary(entry.summary);
    } else {
      program.command(entry.name).summary(entry.summary);
    }
  });
  // The core's log reaches stderr with --verbose: known once the command line is parsed.
  program.hook('preAction', (_program, cmd) => {
    action = cmd;
    state.setVerbose(cmd.optsWithGlobals<{ verbose?: boolean }>().verbose === true);
  });
  // Every (sub)command reports usage errors by throwing, so the runner owns exit codes.
  const override = (c: Command): void => {
    c.exitOverride();
    checkRequiredAfterUnknown(c);
    if (c !== program) strictSubcommands(c);
    c.commands.forEach(override);
  };
  override(program);
  return {
    program,
    close: () => state.close(),
    exitCode: () => state.exitCode,
    flags: () =>
      new Set(
        ((action as Command | null)?.options ?? []).flatMap((o) =>
          o.long ? [o.long.replace(/^--/, '')] : [],
        ),
      ),
  };
}

/** Runs the CLI for these arguments (without `node` and the script) and returns the exit code. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  if (asksVersion(args)) {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const json = args.includes('--json');
  let built: BuiltProgram | null = null;
  let code: number = EXIT.ok;
  try {
    built = await buildProgram(io, args);
    await built.program.parseAsync([...args], { from: 'user' });
    code = built.exitCode();
  } catch (err) {
    // Nothing more can be said to a reader that left; main.ts ends the process as soon as it happens.
    if (isBrokenPipe(err)) return EXIT.ok;
    code = exitCodeFor(err);
    const ctx = { flags: built?.flags() ?? new Set<string>() };
    if (err instanceof CommanderError) {
      // Commander already printed its message (or the help).
      if (json && code !== EXIT.ok) {
        new Output(io, true).json1({ error: { name: 'UsageError', message: err.message } });
      }
    } else {
      const out = new Output(io, json);
      if (json) out.json1(errorJson(err, ctx));
      else {
        // Loaded here: tables and spinners are not needed to answer `--help`.
        const { Output } = await import('./output');
        const out = new Output(io, json);
        const [first, ...rest] = errorLines(err, ctx);
        out.warn(`${out.colors.red('error:')} ${first ?? ''}`);
        for (const l of rest) out.warn(l);
      }
    }
  } finally {
    await built?.close().catch(() => undefined);
  }
  return code;
}
