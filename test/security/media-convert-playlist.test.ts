import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWebHost, type TestWebHost } from '../helpers/web-host';
import { mediaFixtures } from '../helpers/media-fixtures';

/**
 * Issue #23, part 3: a page of `postdesk web` uploads an HLS playlist whose segment is a local video the person
 * never picked, and asks main to convert it. ffmpeg, left to choose its demuxer, reads the playlist and then the
 * video; the page previews the result. Over the real host, its WebSocket and real ffmpeg.
 */

let host: TestWebHost;
let privateVideo: string;
let fifo: string;

beforeAll(async () => {
  host = await startTestWebHost('postdesk-m3u8-');
  const home = join(host.dir, 'home', 'Videos');
  await mkdir(home, { recursive: true });
  privateVideo = join(home, 'private.mp4');
  execFileSync('cp', [mediaFixtures().mp4, privateVideo]);
  // A named pipe that nobody writes: whoever opens it to read is seen (a non-blocking writer then opens).
  fifo = join(home, 'watched.mp4');
  execFileSync('mkfifo', [fifo]);
});
afterAll(() => host?.close());

const playlist = (segment: string): Buffer =>
  Buffer.from(
    `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n${segment}\n#EXT-X-ENDLIST\n`,
  );

/** Gives the page's bytes to the host and registers them, as a dropped file. */
async function upload(name: string, bytes: Buffer): Promise<string> {
  const { page } = host;
  const granted = await page.bridge.files.grant([
    {
      name,
      size: bytes.length,
      type: 'application/vnd.apple.mpegurl',
      arrayBuffer: async () =>
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
    },
  ]);
  const grant = granted.ok ? granted.value.files[0]?.grant : undefined;
  expect(grant).toBeTruthy();
  const added = await page.bridge.media.add({ grants: [grant!] });
  const id = added.ok ? added.value.files[0]?.id : undefined;
  expect(id).toBeTruthy();
  return id!;
}

/** True if some process opened `path` (a FIFO) for reading while `during` ran. */
async function openedWhile(path: string, during: Promise<unknown>): Promise<boolean> {
  let opened = false;
  let done = false;
  void during.finally(() => (done = true));
  while (!done) {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
      opened = true; // closing at once gives the reader an end of file, so it does not hang
    } catch {
      // ENXIO: no reader
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return opened;
}

describe('media:convert of a page-uploaded playlist', () => {
  it('does not read, convert or preview the local video it names', { timeout: 60_000 }, async () => {
    const id = await upload('clip.m3u8', playlist(privateVideo));
    const converted = await host.page.bridge.media.convert({ id });
    expect(converted.ok).toBe(false);
    expect(!converted.ok && converted.error.kind).toBe('invalid_input');
    expect(!converted.ok && converted.error.message).toMatch(/not a picture or video Postdesk reads/);
  });

  it('never has ffmpeg or ffprobe open the file the playlist names', { timeout: 60_000 }, async () => {
    const id = await upload('watched.m3u8', playlist(fifo));
    const converting = host.page.bridge.media.convert({ id });
    expect(await openedWhile(fifo, converting)).toBe(false);
    expect((await converting).ok).toBe(false);
  });
});
