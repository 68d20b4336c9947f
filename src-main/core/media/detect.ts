import { SNIFF_BYTES, detectBytes, type Detected } from '../../../src-shared/media-input';
import { readFileHead } from '../files';

// The sniffing is pure and shared with the sandbox: src-shared/media-input.ts, the media input door.
export { detectBytes } from '../../../src-shared/media-input';
export type { Detected, MediaFormat } from '../../../src-shared/media-input';

/** Reads the start of `path` and says what it is. */
export async function detectFile(path: string): Promise<Detected> {
  return detectBytes(await readFileHead(path, SNIFF_BYTES));
}
