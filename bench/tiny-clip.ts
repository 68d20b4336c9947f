import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { findTool } from '../src-main/core/media/tools';

/**
 * A real one-second MP4 (moov first), the seed the media benches pad to the sizes they measure. A generated
 * picture, no input file: made directly, as the tests' fixtures are, not through the media input door.
 */
export async function writeTinyClip(path: string): Promise<void> {
  await promisify(execFile)(findTool('ffmpeg').path, [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=64x48:rate=10:duration=1',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    path,
  ]);
}
