import type { Command } from 'commander';
import { Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { registerSecret } from '../../core/api/redact';
import { ValidationError } from '../../core/api/errors';
import { API_KEY_SECRET } from '../../core/secrets/secret-store';
import type { CliDeps } from '../context';
import type { CliIo } from '../output';

async function readStdin(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of io.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** Asks on the terminal without echoing what is typed. */
function promptHidden(io: CliIo, question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (!muted) io.stderr.write(chunk);
      cb();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      io.stderr.write('\n');
      resolve(answer.trim());
    });
    muted = true;
  });
}

export function registerLoginCommand(program: Command, deps: CliDeps): void {
  program
    .command('login')
    .description('check an API key by listing your accounts, then keep it in the OS keychain')
    .option('--stdin', 'read the key from stdin (the default when stdin is not a terminal)')
    .action(async (opts: { stdin?: boolean }, cmd: Command) => {
      const out = deps.output(cmd);
      if (deps.globals(cmd).sandbox) {
        throw new ValidationError(
          [
            {
              path: '--sandbox',
              message: 'the sandbox uses its own demo key; log in to a real service instead',
            },
          ],
          null,
          'argument',
        );
      }
      const fromStdin = opts.stdin === true || !deps.io.stdin.isTTY;
      const key = fromStdin ? await readStdin(deps.io) : await promptHidden(deps.io, 'API key: ');
      if (!key) throw new ValidationError([{ path: 'api key', message: 'is empty' }], null, 'argument');
      registerSecret(key);
      const core = await deps.core(cmd, { replay: false });
      const check = core.withApiKey(key);
      try {
        const { accounts } = await out.spin('checking the key', () => check.listAccounts());
        await core.secrets.set(API_KEY_SECRET, key);
        out.result({ ok: true, accounts: accounts.length, base_url: core.endpoint.baseUrl }, () => {
          out.line(
            `${out.colors.green('✓')} key accepted by ${core.endpoint.baseUrl} (${accounts.length} accounts)`,
          );
          out.line('  stored in the OS keychain (service "postdesk")');
          if (deps.io.env.POSTDESK_API_KEY) out.line('  note: POSTDESK_API_KEY is set and takes precedence');
          else if (deps.io.env.POSTDESK_API_KEY_FILE)
            out.line('  note: POSTDESK_API_KEY_FILE is set and takes precedence');
        });
      } finally {
        await check.close();
      }
    });
}
