import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHANNELS } from '../../src-shared/ipc/contract';
import { GUARDED_SETTINGS } from '../../src-shared/ipc/settings';

/**
 * The rule of point 4 as an invariant of the contract: no channel the page can call takes a path, a
 * program or its arguments, except the guarded settings, which main saves only once the user confirms
 * them outside the page. A channel added later with such a field fails here until it takes a grant.
 */

const POWERFUL = /(^|_)(path|paths|dir|directory|folder|file|filename|command|args|argv|cwd|env)$/i;

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema | Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: Schema | boolean;
};

/** Every string-valued field of a schema, as a dotted path. */
function stringFields(s: Schema, at: string[] = []): string[] {
  const out: string[] = [];
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string')) out.push(at.join('.'));
  for (const [k, v] of Object.entries(s.properties ?? {})) out.push(...stringFields(v, [...at, k]));
  for (const v of [s.items ?? []].flat()) out.push(...stringFields(v, [...at, '[]']));
  for (const v of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])])
    out.push(...stringFields(v, at));
  if (typeof s.additionalProperties === 'object')
    out.push(...stringFields(s.additionalProperties, [...at, '*']));
  return out;
}

describe('the bridge contract', () => {
  it('has no channel taking a path or a program, other than the guarded settings', () => {
    const found: string[] = [];
    for (const c of CHANNELS) {
      if (c.def.kind !== 'invoke') continue;
      const schema = z.toJSONSchema(c.def.input, { unrepresentable: 'any', io: 'input' }) as Schema;
      for (const field of stringFields(schema)) {
        const names = field.split('.').filter((n) => n !== '[]');
        if (names.some((n) => POWERFUL.test(n))) found.push(`${c.name} ${field}`);
      }
    }
    const guarded = found.filter((f) => {
      const [channel, field] = f.split(' ') as [string, string];
      return (
        channel === 'settings:update' &&
        (GUARDED_SETTINGS as readonly string[]).includes(field.split('.')[0]!)
      );
    });
    expect(found.filter((f) => !guarded.includes(f))).toEqual([]);
    // And the guard really covers them: the settings that name programs and folders are all guarded.
    expect(guarded.map((f) => f.split(' ')[1]!.split('.')[0]).sort()).toEqual(
      ['agent_commands', 'agent_commands', 'automation_folders', 'ffmpeg_path', 'ffprobe_path'].sort(),
    );
  });
});
