import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardCaption, runCardAgent } from '../../../../src-main/core/executor/agents/card-agent';
import { detectFile } from '../../../../src-main/core/media/detect';
import { defaultTools } from '../../../../src-main/core/media/tools';
import { agentOf } from '../../../../src-shared/settings';
import { scaled } from '../../../helpers/timeouts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'postdesk-card-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(mode: 'draft' | 'auto', platforms: readonly string[]) {
  const runDir = join(dir, `${mode}-${platforms.join('-')}`);
  const { mkdir } = await import('node:fs/promises');
  await mkdir(runDir, { recursive: true });
  await writeFile(
    join(runDir, 'run.json'),
    JSON.stringify({
      scheduled_for: '2030-01-02T10:00:00.000Z',
      automation: {
        name: 'Hourly tip clip',
        execution_mode: mode,
        targets: platforms.map((platform) => ({ platform })),
      },
    }),
  );
  await writeFile(join(runDir, 'task.md'), '# Hourly tip clip\n\nOne tip a day.\n\nMore text.\n---\n\nskill');
  const lines: string[] = [];
  const outputFile = join(runDir, 'output.json');
  const r = await runCardAgent({ runDir, outputFile, tools: defaultTools(), say: (l) => lines.push(l) });
  return {
    r,
    lines,
    runDir,
    output: JSON.parse(await readFile(outputFile, 'utf8')) as { media: string[]; caption: string },
  };
}

describe('the built-in caption-card agent', () => {
  it(
    'draws a PNG card for drafts and a short MP4 where a direct upload needs video',
    async () => {
      const draft = await run('draft', ['instagram', 'x']);
      expect(draft.r).toEqual({ ok: true });
      expect(draft.output).toMatchObject({ caption: 'One tip a day.', media: ['card.png'] });
      expect((await detectFile(join(draft.runDir, 'card.png'))).mime).toBe('image/png');
      expect(draft.lines).toContain('::step render completed card.png');

      const auto = await run('auto', ['tiktok', 'linkedin']);
      expect(auto.output.media).toEqual(['card.mp4']);
      expect((await detectFile(join(auto.runDir, 'card.mp4'))).mime).toBe('video/mp4');
      expect((await stat(join(auto.runDir, 'card.mp4'))).size).toBeGreaterThan(1000);
      expect(cardCaption('# n\n\n\n')).toBe('');
    },
    scaled(60_000),
  );
});

describe('which agent runs an automation', () => {
  const base = { agents: {}, folders: {}, commands: [] as string[], demo: false };
  it('is the user’s choice, else the demo’s caption card when nothing is set up, else the executor’s', () => {
    expect(agentOf('a', { ...base, agents: { a: 'claude' } })).toEqual({ type: 'claude', source: 'chosen' });
    expect(agentOf('a', { ...base, demo: true })).toEqual({ type: 'card', source: 'demo' });
    // A folder, a --folder or an agent command is something set up: the demo default steps aside.
    expect(agentOf('a', { ...base, demo: true, folders: { a: '~/clips' } })).toEqual({
      type: 'folder',
      source: 'executor',
    });
    expect(agentOf('a', { ...base, demo: true, folder: '/clips' }).type).toBe('folder');
    expect(agentOf('a', { ...base, demo: true, commands: ['claude'] })).toEqual({
      type: 'claude',
      source: 'executor',
    });
    expect(agentOf('a', { ...base, commands: ['x', 'y'] })).toEqual({ type: null, source: 'executor' });
    // An id the service sends cannot reach the object's own properties.
    expect(agentOf('constructor', base)).toEqual({ type: 'folder', source: 'executor' });
  });
});
