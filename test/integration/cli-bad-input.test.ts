import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere } from '../helpers/cli-process';
import { documentedExit, leafCommands, type Leaf } from '../helpers/cli-tree';

/**
 * Every command of the program tree (read from the tree, so a new command is walked too) given bad input: an
 * unknown option, a value outside an option's choices, a missing argument. Each exits with the code the exit-code
 * table of docs/cli.md gives for bad input, names what was wrong, and prints no stack.
 */
let dir: string;
let leaves: Leaf[];
let badInput: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pd-cli-bad-input-'));
  leaves = await leafCommands();
  badInput = documentedExit(
    readFileSync(resolve(import.meta.dirname, '../../docs/cli.md'), 'utf8'),
    /^bad input/,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) =>
  runCliHere(args, {
    POSTDESK_DATA_DIR: join(dir, 'data'),
    // Nothing here may reach a service: none is given, and none answers at this address.
    POSTDESK_BASE_URL: 'http://127.0.0.1:9',
    POSTDESK_API_KEY: 'pd_unused_key_0000000000',
    POSTDESK_HTTP_RETRIES: '0',
    PATH: process.env.PATH,
  });

/** A stand-in for each required argument, so the run reaches the option being checked. */
const placeholders = (l: Leaf): string[] =>
  l.command.registeredArguments.filter((a) => a.required).map(() => '01234567-89ab-4cde-8f01-23456789abcd');

const STACK = /\n\s+at .+\(.+:\d+:\d+\)/;

describe('every command, given bad input', () => {
  it('walks the whole tree', () => {
    const paths = leaves.map((l) => l.path.join(' '));
    for (const p of [
      'posts show',
      'posts list',
      'analytics',
      'export posts',
      'queue show',
      'sandbox',
      'automations list',
    ])
      expect(paths).toContain(p);
  });

  it('an unknown option: the documented bad-input code, naming the option', async () => {
    for (const l of leaves) {
      const run = await cli([...l.path, ...placeholders(l), '--no-such-option']);
      const what = l.path.join(' ');
      expect(run.code, `${what}: ${run.err}`).toBe(badInput);
      expect(run.err, what).toContain('--no-such-option');
      expect(run.err, what).not.toMatch(STACK);
    }
  });

  it('a value outside an option’s choices: the bad-input code, naming the option', async () => {
    let checked = 0;
    for (const l of leaves) {
      for (const o of l.command.options) {
        if (!o.argChoices?.length || !o.long) continue;
        checked += 1;
        const run = await cli([...l.path, ...placeholders(l), o.long, 'not-a-choice']);
        const what = `${l.path.join(' ')} ${o.long}`;
        expect(run.code, `${what}: ${run.err}`).toBe(badInput);
        expect(run.err, what).toContain(o.long);
        expect(run.err, what).not.toMatch(STACK);
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('a missing argument: the bad-input code, naming the argument', async () => {
    let checked = 0;
    for (const l of leaves) {
      const required = l.command.registeredArguments.filter((a) => a.required);
      if (!required.length) continue;
      checked += 1;
      const run = await cli([...l.path]);
      const what = l.path.join(' ');
      expect(run.code, `${what}: ${run.err}`).toBe(badInput);
      expect(run.err, what).toContain(required[0]!.name());
      expect(run.err, what).not.toMatch(STACK);
    }
    expect(checked).toBeGreaterThan(5);
  });
});
