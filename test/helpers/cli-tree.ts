import { PassThrough, Readable } from 'node:stream';
import type { Command } from 'commander';
import { buildProgram } from '../../src-main/cli/program';

export interface Leaf {
  /** The words that run it: `['posts', 'show']`. */
  readonly path: readonly string[];
  readonly command: Command;
}

/** Every command that runs an action (no subcommands of its own), read from the CLI's own program tree. */
export async function leafCommands(): Promise<Leaf[]> {
  const io = {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: Readable.from(['']),
    env: {},
  };
  const built = await buildProgram(io, [], { load: 'all' });
  await built.close();
  const out: Leaf[] = [];
  const walk = (c: Command, path: string[]): void => {
    const subs = c.commands.filter((s) => s.name() !== 'help');
    if (!subs.length && path.length) out.push({ path, command: c });
    for (const s of subs) walk(s, [...path, s.name()]);
  };
  walk(built.program, []);
  return out;
}

/** The exit code docs/cli.md gives for a meaning (`bad input`), read from its exit-code table. */
export function documentedExit(doc: string, meaning: RegExp): number {
  const table = doc.slice(doc.indexOf('## Exit codes'));
  for (const line of table.split('\n')) {
    const m = /^\| (\d) \| (.*) \|$/.exec(line);
    if (m && meaning.test(m[2] ?? '')) return Number(m[1]);
  }
  throw new Error(`docs/cli.md has no exit code for ${meaning}`);
}
