import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestFile {
  readonly name: string;
  readonly type: string;
  /** Base64, to cross into the page where the File is built. */
  readonly base64: string;
}

/** A real PNG, a real MP4 (H.264 + AAC, faststart) and a real WebM (VP8), made by ffmpeg for this run. */
export async function makeMediaFiles(): Promise<{ png: TestFile; mp4: TestFile; webm: TestFile }> {
  const dir = await mkdtemp(join(tmpdir(), 'postdesk-e2e-media-'));
  try {
    const png = join(dir, 'sunrise.png');
    const mp4 = join(dir, 'teaser.mp4');
    const webm = join(dir, 'screen-recording.webm');
    const quiet = ['-hide_banner', '-loglevel', 'error', '-y'];
    await run('ffmpeg', [
      ...quiet,
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=640x480:rate=1',
      '-frames:v',
      '1',
      png,
    ]);
    await run('ffmpeg', [
      ...quiet,
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...[
        '-t',
        '1',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-movflags',
        '+faststart',
        '-shortest',
      ],
      mp4,
    ]);
    await run('ffmpeg', [
      ...quiet,
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-t', '1'],
      ...['-c:v', 'libvpx', '-b:v', '200k'],
      webm,
    ]);
    return {
      webm: {
        name: 'screen-recording.webm',
        type: 'video/webm',
        base64: (await readFile(webm)).toString('base64'),
      },
      png: { name: 'sunrise.png', type: 'image/png', base64: (await readFile(png)).toString('base64') },
      mp4: { name: 'teaser.mp4', type: 'video/mp4', base64: (await readFile(mp4)).toString('base64') },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
