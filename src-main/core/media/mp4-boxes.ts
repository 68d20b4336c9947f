import { openForReading } from '../files';

/** One top-level ISO-BMFF box as declared in its header. */
export interface Mp4Box {
  readonly type: string;
  readonly start: number;
  readonly size: number;
}

export interface Mp4Layout {
  readonly boxes: readonly Mp4Box[];
  readonly hasMoov: boolean;
  readonly hasMdat: boolean;
  /** `moov` before `mdat`: players and the service can start without reading the whole file. */
  readonly faststart: boolean;
  /** Set when a box claims to end past the end of the file: the file was cut short. */
  readonly truncated: {
    readonly box: string;
    readonly declaredEnd: number;
    readonly fileSize: number;
  } | null;
}

const MAX_BOXES = 10_000;

/**
 * Walks the top-level boxes by their headers only (a few bytes each, however large the file), so a cut-off
 * upload is caught even when ffprobe can still read the part that arrived.
 */
export async function readMp4Layout(path: string): Promise<Mp4Layout> {
  const fh = await openForReading(path);
  try {
    const { size: fileSize } = await fh.stat();
    const head = Buffer.alloc(16);
    const boxes: Mp4Box[] = [];
    let truncated: Mp4Layout['truncated'] = null;
    let pos = 0;
    while (pos + 8 <= fileSize && boxes.length < MAX_BOXES) {
      const { bytesRead } = await fh.read(head, 0, 16, pos);
      if (bytesRead < 8) break;
      let size = head.readUInt32BE(0);
      const type = head.toString('latin1', 4, 8);
      if (size === 1) {
        if (bytesRead < 16) {
          truncated = { box: type, declaredEnd: pos + 16, fileSize };
          break;
        }
        size = Number(head.readBigUInt64BE(8));
      } else if (size === 0) {
        // "Extends to the end of the file", legal for the last box only.
        size = fileSize - pos;
      }
      if (size < 8) {
        truncated = { box: type, declaredEnd: pos + 8, fileSize };
        break;
      }
      boxes.push({ type, start: pos, size });
      if (pos + size > fileSize) {
        truncated = { box: type, declaredEnd: pos + size, fileSize };
        break;
      }
      pos += size;
    }
    if (!truncated && pos < fileSize && pos + 8 > fileSize) {
      truncated = { box: '(partial header)', declaredEnd: pos + 8, fileSize };
    }
    const index = (t: string): number => boxes.findIndex((b) => b.type === t);
    const moov = index('moov');
    const mdat = index('mdat');
    return {
      boxes,
      hasMoov: moov >= 0,
      hasMdat: mdat >= 0,
      faststart: moov >= 0 && (mdat < 0 || moov < mdat),
      truncated,
    };
  } finally {
    await fh.close();
  }
}
