import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src-main/cli/commands/index';
import { completionScript } from '../../src-main/cli/completion';
import { buildProgram, commandsToLoad, runCli } from '../../src-main/cli/program';
import { VERSION } from '../../src-main/cli/version';
import { needsTool } from '../helpers/system-tools';

const inFish = needsTool('fish', 'the fish completion script is run in fish');
const inZsh = needsTool('zsh', 'the zsh completion script is run in zsh');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-cli-commands-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = { out: '', err: '' };
  stdout.on('data', (d: Buffer) => (text.out += d.toString()));
  stderr.on('data', (d: Buffer) => (text.err += d.toString()));
  return {
    io: { stdout, stderr, stdin: Readable.from(['']), env: { POSTDESK_DATA_DIR: join(dir, 'data') } },
    text,
  };
}

async function cli(...args: string[]) {
  const { io: streams, text } = io();
  const code = await runCli(args, streams);
  return { code, ...text };
}

async function fullTree(): Promise<Command> {
  const built = await buildProgram(io().io, [], { load: 'all' });
  await built.close();
  return built.program;
}

describe('the command index', () => {
  it('lists each command module under the one name it registers, with the summary help shows', async () => {
    const program = await fullTree();
    expect(program.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c.name));
    for (const [i, entry] of COMMANDS.entries()) {
      expect(program.commands[i]!.summary()).toBe(entry.summary);
      // The full description stays the command's own: its help says more than the one-line list.
      expect(program.commands[i]!.description().length).toBeGreaterThan(0);
    }
  });

  it('loads only the command the arguments name', () => {
    const names = (args: string[]) => commandsToLoad(args).map((c) => c.name);
    expect(names(['--help'])).toEqual([]);
    expect(names(['--version'])).toEqual([]);
    expect(names(['accounts', '--json'])).toEqual(['accounts']);
    expect(names(['--base-url', 'posts', '--json', 'accounts'])).toEqual(['accounts']);
    expect(names(['--sandbox', 'posts', 'create', '--caption', 'bulk'])).toEqual(['posts']);
    expect(names(['help', 'media'])).toEqual(['media']);
    expect(names(['acounts'])).toEqual([]);
    expect(names(['completion', 'bash'])).toEqual(COMMANDS.map((c) => c.name));
  });
});

describe('postdesk --version, --help and unknown commands', () => {
  it('prints the version with --version and -V', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await cli(flag);
      expect(r.code).toBe(0);
      expect(r.out.trim()).toBe(VERSION);
    }
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('lists every command in --help without loading them', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.out).toContain(`${c.name} `);
    expect(r.out).toContain('-V, --version');
  });

  it('shows a command its full help when asked', async () => {
    const r = await cli('posts', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: postdesk posts');
    expect(r.out).toMatch(/create \[options\]/);
  });

  it('answers a misspelt command with a suggestion, exit 2', async () => {
    const r = await cli('acounts');
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown command 'acounts'");
    expect(r.err).toContain('Did you mean accounts?');
    const json = await cli('--json', 'acounts');
    expect(JSON.parse(json.out).error.message).toContain("unknown command 'acounts'");
  });
});

describe('postdesk completion', () => {
  let tree: Command;
  const files: Record<string, string> = {};
  beforeAll(async () => {
    tree = await fullTree();
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const r = await cli('completion', shell);
      expect(r.code).toBe(0);
      files[shell] = join(dir, `postdesk.${shell}`);
      writeFileSync(files[shell], r.out);
    }
    writeFileSync(join(dir, 'clip.mov'), '');
  });

  const sub = (path: string[]): string[] => {
    let c = tree;
    for (const p of path) c = c.commands.find((x) => x.name() === p)!;
    return c.commands.map((x) => x.name());
  };

  /** What bash offers for a command line, the cursor at its end, through the script's completion function. */
  const bash = (line: string): string[] => {
    const words = line.split(' ');
    const r = spawnSync(
      'bash',
      [
        '-c',
        `source "$1"; COMP_WORDS=("\${@:2}"); COMP_CWORD=$(( $# - 2 )); _postdesk; printf '%s\\n' "\${COMPREPLY[@]}"`,
        'bash',
        files.bash!,
        ...words,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean).sort();
  };

  it('is the same tree as the commands (bash)', () => {
    expect(bash('postdesk ')).toEqual(COMMANDS.map((c) => c.name).sort());
    expect(bash('postdesk posts ')).toEqual(sub(['posts']).sort());
    expect(bash('postdesk bulk ')).toEqual(sub(['bulk']).sort());
    expect(bash('postdesk pos')).toEqual(['posts']);
  });

  it('skips option values, completes options, choices and files (bash)', () => {
    expect(bash('postdesk --base-url http://x posts cr')).toEqual(['create']);
    expect(bash('postdesk posts create --ca')).toEqual(['--caption']);
    expect(bash('postdesk posts list --platform ')).toEqual(
      ['instagram', 'linkedin', 'tiktok', 'x', 'youtube'].sort(),
    );
    expect(bash('postdesk completion ')).toEqual(['bash', 'fish', 'zsh']);
    expect(bash('postdesk --js')).toEqual(['--json']);
    expect(bash('postdesk media check cl')).toEqual(['clip.mov']);
  });

  it('completes the same tree in fish, with descriptions', inFish, () => {
    const fish = (line: string): string[] => {
      const r = spawnSync(
        'fish',
        ['--no-config', '-c', `source "$argv[1]"; complete -C "$argv[2]"`, files.fish!, line],
        {
          cwd: dir,
          encoding: 'utf8',
        },
      );
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter(Boolean).sort();
    };
    const top = fish('postdesk ');
    expect(top.map((l) => l.split('\t')[0])).toEqual(COMMANDS.map((c) => c.name).sort());
    expect(top).toContain(`accounts\t${COMMANDS.find((c) => c.name === 'accounts')!.summary}`);
    expect(fish('postdesk --base-url http://x posts ').map((l) => l.split('\t')[0])).toEqual(
      sub(['posts']).sort(),
    );
    expect(fish('postdesk posts list --platform ').map((l) => l.split('\t')[0])).toContain('tiktok');
    expect(fish('postdesk posts create --cap').map((l) => l.split('\t')[0])).toEqual(['--caption']);
  });

  it('completes the same tree in zsh (the completion function, with zsh builtins recorded)', inZsh, () => {
    // compadd, _describe and _files are the completion system's; recording what the function hands them checks
    // the script's own logic in a real zsh without an interactive terminal.
    const zsh = (line: string): string => {
      const words = line.split(' ');
      const r = spawnSync(
        'zsh',
        [
          '-f',
          '-c',
          `source "$1"; shift
           compadd() { print -r -- "compadd $*"; }
           _describe() { local a; for a in "$@"; do [[ $a == -* || $a == option || $a == command ]] && continue; print -rl -- "\${(@P)a}"; done; }
           _files() { print -r -- "_files"; }
           words=("$@"); CURRENT=$#; _postdesk`,
          'zsh',
          files.zsh!,
          ...words,
        ],
        { cwd: dir, encoding: 'utf8' },
      );
      expect(r.stderr).toBe('');
      return r.stdout;
    };
    const top = zsh('postdesk ');
    for (const c of COMMANDS) expect(top).toContain(`${c.name}:${c.summary}`);
    expect(zsh('postdesk --base-url http://x posts ')).toContain('create:');
    expect(zsh('postdesk posts list --platform ')).toContain('compadd -- tiktok instagram');
    expect(zsh('postdesk media check ')).toContain('_files');
    expect(zsh('postdesk posts create --')).toContain('--caption:');
  });

  it('is generated from the tree: a command added to the program appears in every script', async () => {
    const program = await fullTree();
    program.command('brand-new').summary('a command added after the scripts were written');
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      expect(completionScript(program, shell)).toContain('brand-new');
    }
  });
});
