import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../src-sandbox/app';
import { demoFixture } from '../../src-sandbox/demo-fixture';
import { encodePng } from '../../src-sandbox/demo-image';

/**
 * Issue 26, item 7: the built-in demo's inbox holds drafts that look like real posts: each made by a completed run
 * of the draft-mode automation, with a caption a person would post (not the automation's instructions) and a
 * picture drawn at seed time, served by the sandbox as a real PNG.
 */

let sb: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
  await sb?.close();
});

interface Listed {
  posts: {
    post_id: string;
    status: string;
    run_id: string | null;
    caption: string;
    platform: string;
    media: { url: string; mime_type?: string }[];
  }[];
}

const api = async <T>(path: string): Promise<T> => {
  const res = await fetch(new URL(path, sb.url), { headers: { authorization: `Bearer ${sb.apiKey}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};

/** Width, height and the first pixel of an 8-bit RGB PNG, read back by hand. */
function readPng(bytes: Buffer): { width: number; height: number; first: number[] } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (at < bytes.length) {
    const len = bytes.readUInt32BE(at);
    const type = bytes.toString('ascii', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9]]).toEqual([8, 2]);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  expect(raw.length).toBe((width * 3 + 1) * height);
  return { width, height, first: [raw[1]!, raw[2]!, raw[3]!] };
}

it('encodes an RGB PNG that reads back to the same size and pixels', () => {
  const rgb = new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]);
  const png = readPng(encodePng(2, 2, rgb));
  expect(png).toEqual({ width: 2, height: 2, first: [255, 0, 0] });
});

it('the demo inbox holds drafts of completed runs, with real captions and a served picture each', async () => {
  const { posts } = await api<Listed>('/api/cli/posts?status=draft&limit=100');
  const fromRuns = posts.filter((d) => d.run_id);
  const byPost = new Map(fromRuns.map((d) => [d.post_id, d]));
  expect(byPost.size).toBe(3);
  const owner = demoFixture().owners?.[0] as { automations: { instructions: string }[] };
  const instructions = owner.automations.map((a) => a.instructions);
  expect(instructions.length).toBeGreaterThan(0);
  const pictures = new Set<string>();
  for (const d of byPost.values()) {
    // Written as a post is: sentences and a hashtag, within X's 280 characters (the drafts go to X too).
    expect(d.caption.length).toBeLessThanOrEqual(280);
    expect(d.caption).toMatch(/#\w+/);
    for (const text of instructions) expect(d.caption).not.toContain(text);
    expect(d.media).toHaveLength(1);
    const res = await fetch(d.media[0]!.url);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await res.arrayBuffer());
    const png = readPng(bytes);
    expect(png.width).toBe(png.height);
    expect(png.width).toBeGreaterThanOrEqual(320);
    pictures.add(bytes.toString('base64'));
  }
  // Each draft has its own picture.
  expect(pictures.size).toBe(3);
  // Each comes from a completed run (the sandbox's own record of runs), none left running.
  const state = (await (await fetch(new URL('/_sandbox/state', sb.url))).json()) as {
    runs: Record<string, number>;
    media: { uploaded: number };
  };
  expect(state.runs).toEqual({ completed: 3 });
  expect(state.media.uploaded).toBe(3);
});
