import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHANNELS, CONTRACT, findChannel, listenerName } from '../../../src-shared/ipc/contract';
import { makeBridge } from './helpers';

/** Keys whose values are credentials: no output or event of the bridge may declare one. */
const SECRET_KEY = /^(api_?key|apikey|run_token|claim_token|token|secret|password|authorization)$/i;

/** Every object key an output schema can produce, walking through wrappers, unions and arrays. */
function keysOf(schema: z.ZodType, seen = new Set<z.ZodType>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const out: string[] = [];
  const visit = (s: unknown) => {
    if (s && typeof s === 'object' && '_zod' in s) out.push(...keysOf(s as z.ZodType, seen));
  };
  if (def.type === 'object') {
    for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
      out.push(k);
      visit(v);
    }
  }
  for (const k of ['innerType', 'element', 'in', 'out', 'left', 'right', 'valueType', 'schema'])
    visit(def[k]);
  if (Array.isArray(def.options)) def.options.forEach(visit);
  return out;
}

describe('the bridge contract', () => {
  it('names every channel domain:verb, once, and finds it by name', () => {
    const names = CHANNELS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of CHANNELS) {
      expect(c.name).toMatch(/^[a-z][A-Za-z]*:[a-z][A-Za-z]*$/);
      expect(findChannel(c.name)).toBe(c);
    }
    expect(findChannel('constructor')).toBeUndefined();
    expect(findChannel('__proto__:x')).toBeUndefined();
  });

  it('covers every domain the issue names', () => {
    expect(Object.keys(CONTRACT)).toEqual(
      expect.arrayContaining([
        'connection',
        'accounts',
        'posts',
        'calendar',
        'media',
        'bulk',
        'articles',
        'analytics',
        'skills',
        'automations',
        'runs',
        'executor',
        'settings',
        'secrets',
      ]),
    );
    expect(findChannel('media:didHashProgress')?.def.kind).toBe('event');
    expect(findChannel('media:didUploadProgress')?.def.kind).toBe('event');
    expect(findChannel('runs:didStepRun')?.def.kind).toBe('event');
  });

  it('names events onDidX on the bridge', () => {
    for (const c of CHANNELS.filter((x) => x.def.kind === 'event')) {
      expect(c.verb).toMatch(/^did[A-Z]/);
      expect(listenerName(c.verb)).toMatch(/^onDid[A-Z]/);
    }
  });

  it('keeps secrets write-only: set, has, clear; has answers a boolean', () => {
    expect(Object.keys(CONTRACT.secrets).sort()).toEqual(['clear', 'has', 'set']);
    expect(CONTRACT.secrets.has.output.safeParse(true).success).toBe(true);
    expect(CONTRACT.secrets.has.output.safeParse('key').success).toBe(false);
  });

  it('declares no credential field in any output or event payload', () => {
    // the walker sees nested keys (else the check below would pass on nothing)
    expect(keysOf(CONTRACT.accounts.list.output)).toEqual(expect.arrayContaining(['accounts', 'created_at']));
    expect(keysOf(CONTRACT.analytics.overview.output)).toEqual(
      expect.arrayContaining(['by_platform', 'impressions']),
    );
    expect(keysOf(CONTRACT.runs.get.output)).toEqual(expect.arrayContaining(['step_id', 'reason']));
    expect(keysOf(z.object({ run_token: z.string() })).filter((k) => SECRET_KEY.test(k))).toEqual([
      'run_token',
    ]);
    for (const c of CHANNELS) {
      const schema = c.def.kind === 'invoke' ? c.def.output : c.def.payload;
      const bad = keysOf(schema).filter((k) => SECRET_KEY.test(k));
      expect({ channel: c.name, bad }).toEqual({ channel: c.name, bad: [] });
    }
  });

  it('strips a claim token a run record might carry', () => {
    const run = CONTRACT.runs.didChange.payload.parse({
      run: {
        id: 'r1',
        automation_id: 'a1',
        automation_name: null,
        revision: 1,
        state: 'running',
        scheduled_for: null,
        started_at: null,
        finished_at: null,
        reason: null,
        claim_token: 'ct_should_not_pass',
      },
    });
    expect(JSON.stringify(run)).not.toContain('ct_should_not_pass');
  });
});

describe('the handlers', () => {
  it('exist for every invoke channel, and only for those', async () => {
    const tb = await makeBridge();
    try {
      // Assembled as both hosts do (createBridgeHandlers), here without an executor or an updater: the smaller set
      // chosen for their absence still answers every channel.
      const handlers = tb.bridge.handlers as unknown as Record<string, Record<string, unknown>>;
      const invokes = CHANNELS.filter((c) => c.def.kind === 'invoke');
      for (const c of invokes)
        expect({ [c.name]: typeof handlers[c.domain]?.[c.verb] }).toEqual({ [c.name]: 'function' });
      const declared = Object.entries(handlers).flatMap(([d, verbs]) =>
        Object.keys(verbs).map((v) => `${d}:${v}`),
      );
      expect(declared.sort()).toEqual(invokes.map((c) => c.name).sort());
    } finally {
      await tb.close();
    }
  });
});
