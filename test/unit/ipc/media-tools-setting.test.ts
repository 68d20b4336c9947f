import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaFixtures } from '../../helpers/media-fixtures';
import { ALLOW_ALL, grant, makeBridge, type TestBridge } from './helpers';

let tb: TestBridge;
beforeAll(async () => {
  tb = await makeBridge(undefined, { confirm: ALLOW_ALL });
});
afterAll(async () => {
  await tb.close();
});

const invoke = (channel: string, input?: unknown) =>
  tb.bridge.dispatcher.invoke(channel as never, input) as Promise<{ ok: boolean; value?: unknown }>;

describe('the ffmpeg/ffprobe settings through the bridge', () => {
  it('are saved as ffmpeg_path/ffprobe_path and used by media:inspect from the next call on', async () => {
    expect(await invoke('settings:get')).toMatchObject({
      ok: true,
      value: { ffmpeg_path: null, ffprobe_path: null },
    });
    const missing = join(tb.dir, 'no-such-ffprobe');
    expect(await invoke('settings:update', { ffprobe_path: missing })).toMatchObject({
      ok: true,
      value: { ffmpeg_path: null, ffprobe_path: missing },
    });

    const added = (await invoke('media:add', { grants: await grant(tb, mediaFixtures().mp4) })) as {
      value: { files: { id: string }[] };
    };
    const id = added.value.files[0]!.id;
    const withMissing = (await invoke('media:inspect', { id })) as {
      value: { checks: { message: string }[] };
    };
    // The path is the user's own choice; this one sits in a temporary folder, which the page never sees.
    expect(withMissing.value.checks.map((c) => c.message).join('\n')).toContain(
      'the ffprobe program chosen in Settings, under Media tools, is not there',
    );

    expect(await invoke('settings:update', { ffprobe_path: null })).toMatchObject({
      value: { ffprobe_path: null },
    });
    const withDefault = (await invoke('media:inspect', { id })) as {
      value: { ok: boolean; checks: { message: string }[] };
    };
    expect(withDefault.value.checks.map((c) => c.message).join('\n')).not.toContain('not found');
    expect(withDefault.value.ok).toBe(true);
  });
});
