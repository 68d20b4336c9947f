import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFile } from '../../src-main/core/media/check';
import { convertToMp4 } from '../../src-main/core/media/convert';
import { probeFile } from '../../src-main/core/media/probe';
import { createTools, findTool, type Tools } from '../../src-main/core/media/tools';
import { probeMedia } from '../../src-sandbox/media/probe';
import { mediaFixtures } from '../helpers/media-fixtures';

/**
 * Issue #23's class test for media input: every path that runs ffmpeg or ffprobe on a file (check, probe,
 * convert, the sandbox's probe of a stored object) is given an HLS playlist, a concat list and an `image2`
 * pattern, each naming a file the person never picked. Each is refused before a program starts, or the program
 * runs with the sniffed `-f` and `-protocol_whitelist file`, so it cannot follow. The named file is a FIFO: a
 * program that opens it is seen. Real ffmpeg and ffprobe, through wrappers that log every argument list.
 */

let dir: string;
let log: string;
let tools: Tools;
/** The file each hostile input names: a FIFO nobody writes. */
let watched: string;
const inputs: Record<string, string> = {};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'postdesk-media-door-'));
  log = join(dir, 'argv.log');
  writeFileSync(log, '');
  const wrap = (tool: 'ffmpeg' | 'ffprobe'): string => {
    const path = join(dir, `logging-${tool}`);
    const real = findTool(tool).path;
    writeFileSync(path, `#!/bin/sh\nprintf '${tool} %s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`, {
      mode: 0o755,
    });
    return path;
  };
  tools = createTools({ ffmpegPath: wrap('ffmpeg'), ffprobePath: wrap('ffprobe') }, {});
  watched = join(dir, 'private.mp4');
  execFileSync('mkfifo', [watched]);
  inputs.hls = join(dir, 'clip.m3u8');
  writeFileSync(inputs.hls, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n${watched}\n#EXT-X-ENDLIST\n`);
  inputs.concat = join(dir, 'list.ffconcat');
  writeFileSync(inputs.concat, `ffconcat version 1.0\nfile '${watched}'\n`);
  inputs.concatNamedMp4 = join(dir, 'list.mp4');
  writeFileSync(inputs.concatNamedMp4, `ffconcat version 1.0\nfile '${watched}'\n`);
  // An image2 pattern: a real PNG whose name, read as a pattern, names its FIFO sibling shot1.png.
  inputs.image2 = join(dir, 'shot%d.png');
  writeFileSync(inputs.image2, readFileSync(mediaFixtures().png));
  execFileSync('mkfifo', [join(dir, 'shot1.png')]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** True if some process opened one of the FIFOs to read while `during` ran. */
async function openedWhile(during: Promise<unknown>): Promise<boolean> {
  let opened = false;
  let done = false;
  void during.then(
    () => (done = true),
    () => (done = true),
  );
  const fifos = [watched, join(dir, 'shot1.png')];
  while (!done) {
    for (const f of fifos) {
      try {
        closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK));
        opened = true;
      } catch {
        // ENXIO: no reader
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return opened;
}

/** The argument lists the wrappers saw since `from` (the `-version` asked when a tool is first found aside). */
const runsSince = (from: number): string[] =>
  readFileSync(log, 'utf8')
    .slice(from)
    .split('\n')
    .filter((l) => l && !/^ff\w+ -version$/.test(l));

const PATHS: Record<string, (file: string) => Promise<unknown>> = {
  'check (every file probed)': (f) => checkFile(f, { probe: 'all', tools }),
  'check (as a direct upload)': (f) => checkFile(f, { purpose: 'direct-upload', probe: 'all', tools }),
  probe: (f) => probeFile(f, { tools }),
  convert: (f) => convertToMp4(f, { out: join(dir, 'out.mp4'), tools }),
  'convert to a size': (f) => convertToMp4(f, { out: join(dir, 'small.mp4'), maxBytes: 100_000, tools }),
};

describe('every ffmpeg and ffprobe path, given inputs that name other files', () => {
  for (const [path, run] of Object.entries(PATHS)) {
    for (const kind of ['hls', 'concat', 'concatNamedMp4', 'image2']) {
      it(`${path}: ${kind}`, { timeout: 30_000 }, async () => {
        const from = readFileSync(log, 'utf8').length;
        const running = run(inputs[kind]!);
        expect(await openedWhile(running)).toBe(false);
        await running.catch(() => undefined);
        const runs = runsSince(from);
        if (kind !== 'image2') expect(runs, 'refused before any program starts').toEqual([]);
        for (const line of runs) {
          expect(line).toMatch(
            / -f (jpeg_pipe|png_pipe|webp_pipe|mov|matroska) -protocol_whitelist file -i file:\//,
          );
        }
      });
    }
  }

  it('the sandbox probe of a stored object: each refused, nothing opened', { timeout: 30_000 }, async () => {
    for (const kind of ['hls', 'concat', 'concatNamedMp4']) {
      const probing = probeMedia(inputs[kind]!, 'video');
      expect(await openedWhile(probing), kind).toBe(false);
      expect(await probing, kind).toMatchObject({ probe_error: expect.any(String) as string });
    }
    const image = probeMedia(inputs.image2!, 'image');
    expect(await openedWhile(image)).toBe(false);
    // The pattern is read as the one file it is: the PNG's own picture.
    const own = await probeMedia(mediaFixtures().png, 'image');
    expect(own).toMatchObject({ width: expect.any(Number) as number });
    expect(await image).toMatchObject({ width: own.width, height: own.height });
  });

  it('real media still passes the door, with the demuxer its bytes name', async () => {
    const fx = mediaFixtures();
    const from = readFileSync(log, 'utf8').length;
    for (const f of [fx.mp4, fx.mov, fx.webm, fx.jpeg, fx.png, fx.webp]) {
      expect((await probeFile(f, { tools })).formatName, f).not.toBe('unknown');
    }
    const demuxers = runsSince(from).map((l) => / -f (\S+) /.exec(l)?.[1]);
    expect(demuxers).toEqual(['mov', 'mov', 'matroska', 'jpeg_pipe', 'png_pipe', 'webp_pipe']);
  });
});

/**
 * The census that keeps every site on the door: a source file that starts a program and names ffmpeg or ffprobe is
 * one of the two runners (the app's `runTool`, the sandbox's probe), and nothing but tools.ts calls `runTool` with
 * an argument list not made by src-shared/media-input.ts (the `ToolArgv` type sees to that).
 */
describe('every ffmpeg and ffprobe run goes through the door', () => {
  it('only the two runners start ffmpeg or ffprobe', () => {
    const ROOT = resolve(import.meta.dirname, '../..');
    const runners: string[] = [];
    for (const tree of ['src-main', 'src-sandbox', 'src-shared']) {
      for (const e of readdirSync(join(ROOT, tree), { withFileTypes: true, recursive: true })) {
        if (!e.isFile() || !/\.tsx?$/.test(e.name)) continue;
        const file = relative(ROOT, join(e.parentPath, e.name));
        const text = readFileSync(join(ROOT, file), 'utf8');
        // A file that can start a program (it imports child_process) and names one of the tools.
        if (/from ['"](node:)?child_process['"]/.test(text) && /ff(mpeg|probe)/i.test(text))
          runners.push(file);
      }
    }
    expect(runners.sort()).toEqual(['src-main/core/media/tools.ts', 'src-sandbox/media/probe.ts']);
    const sandbox = readFileSync(resolve(import.meta.dirname, '../../src-sandbox/media/probe.ts'), 'utf8');
    expect(sandbox).toMatch(/\[\.\.\.argv\.args\]/);
  });
});
