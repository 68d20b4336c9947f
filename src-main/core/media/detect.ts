import { SNIFF_BYTES, detectBytes, type Detected } from '../../../src-shared/media-input';
import { openForReading } from '../files';

// The sniffing is pure and shared with the sandbox: src-shared/media-input.ts, the media input door.
export { detectBytes } from '../../../src-shared/media-input';
export type { Detected, MediaFormat } from '../../../src-shared/media-input';

/** Reads the start of `path` and says what it is. */
export async function detectFile(path: string): Promise<Detected> {
  const fh = await openForReading(path);
  try {
    const buf = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return detectBytes(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}
