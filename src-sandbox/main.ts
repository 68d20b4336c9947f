import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSandbox } from './app';
import { safeLine } from '../src-shared/safe-text';
import { readTextFileSync } from '../src-main/core/files';

const port = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return n;
};

/**
 * The sandbox CLI (`npm run sandbox`, `postdesk sandbox`): runs in the foreground until SIGINT or
 * SIGTERM, then stops accepting, finishes requests in flight, closes the database and exits 0.
 */
/** Why a seed file cannot be used, in words: missing, a folder, unreadable, or not JSON (with where). */
function readSeed(file: string): { fixture: object } | { problem: string } {
  let text: string;
  try {
    text = readTextFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? 'you are not allowed to read it'
            : 'cannot be read';
    return { problem: `${why}: ${file}` };
  }
  try {
    const fixture: unknown = JSON.parse(text);
    if (fixture === null || typeof fixture !== 'object') return { problem: `${file} is not a JSON object` };
    return { fixture };
  } catch (err) {
    return { problem: `${file} is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * Usage errors (an unknown option, `--port abc`, a seed that cannot be read) are printed through `writeErr` and
 * thrown as a CommanderError, never a process exit: `postdesk sandbox` gives them its exit code for bad input.
 */
export async function runSandboxCli(
  argv: readonly string[],
  out: { writeErr?: (text: string) => void } = {},
): Promise<void> {
  const program = new Command('sandbox')
    .description('Run the local Postdesk sandbox: the whole service, offline')
    .option('--port <n>', 'port to listen on (0 picks a free one)', port, 4010)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data <dir>', 'keep the database and uploaded objects in this directory')
    .option('--seed <file>', 'load this fixture (JSON) instead of the built-in demo fixture')
    .option('--alias-port <n>', 'also serve every route on this port (the alias host)', port)
    .option('--quiet', 'do not log internal errors')
    .exitOverride();
  if (out.writeErr) program.configureOutput({ writeErr: out.writeErr });
  program.parse([...argv], { from: 'user' });
  const o = program.opts<{
    port: number;
    host: string;
    data?: string;
    seed?: string;
    aliasPort?: number;
    quiet?: boolean;
  }>();

  const seed = o.seed ? readSeed(resolve(o.seed)) : null;
  if (seed && 'problem' in seed) program.error(`error: option '--seed <file>': ${seed.problem}`);
  const sandbox = await startSandbox({
    port: o.port,
    host: o.host,
    ...(o.data ? { dataDir: resolve(o.data) } : {}),
    ...(seed && 'fixture' in seed ? { fixture: seed.fixture } : {}),
    ...(o.aliasPort !== undefined ? { aliasPort: o.aliasPort } : {}),
    quiet: o.quiet ?? false,
  });
  // Handlers first: whoever reads the listening line may signal at once, and must find the graceful stop in place.
  const stopped = new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void sandbox.close().then(done, (err: unknown) => {
        console.error(
          `sandbox: error while closing: ${safeLine(err instanceof Error ? err.message : String(err))}`,
        );
        done();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  // The address bound, not a loopback name for it: with --host 0.0.0.0 the network reaches it too.
  process.stdout.write(`sandbox listening on ${sandbox.listening}\n`);
  if (sandbox.apiKey && !o.seed) process.stdout.write(`api key: ${sandbox.apiKey}\n`);
  if (sandbox.aliasListening) process.stdout.write(`alias listening on ${sandbox.aliasListening}\n`);
  await stopped;
}

const isMain =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  runSandboxCli(process.argv.slice(2)).then(
    () => process.exit(0),
    (err: unknown) => {
      // Commander printed its own message (or the help).
      if (err instanceof CommanderError) process.exit(err.exitCode);
      console.error(`sandbox: ${safeLine(err instanceof Error ? err.message : String(err))}`);
      process.exit(1);
    },
  );
}
