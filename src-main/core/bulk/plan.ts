import type { Digests } from '../media/hash';
import { hashFile } from '../media/hash';
import type { MediaStore } from '../media/media-store';
import { LIMITS } from '../../../src-shared/api/limits';
import type { PostRow, RowProblem } from './validate';
import { statPath } from '../files';

export interface PlannedUpload {
  readonly sha256: string;
  /** Every file (as written in the import) with these bytes; one upload serves them all. */
  readonly files: readonly string[];
  readonly path: string;
  readonly bytes: number;
  readonly rows: readonly number[];
  /** This machine already completed an upload of these bytes to this service. */
  readonly uploadedBefore: boolean;
}

export interface TargetSchedule {
  /** `platform:account_id` */
  readonly target: string;
  readonly drafts: number;
  /** Each scheduled post for this target, in time order. */
  readonly scheduled: readonly { readonly row: number; readonly at: string }[];
}

export interface ImportPlan {
  readonly totalRows: number;
  readonly validRows: number;
  readonly problems: readonly RowProblem[];
  readonly batches: readonly {
    readonly seq: number;
    readonly items: number;
    readonly firstRow: number;
    readonly lastRow: number;
  }[];
  readonly uploads: readonly PlannedUpload[];
  /** Media references by asset id (already managed uploads). */
  readonly assetRefs: number;
  /** File references saved by deduplication: the same bytes named more than once. */
  readonly duplicateFiles: number;
  readonly schedule: readonly TargetSchedule[];
}

/** Rows in order, cut into batches of at most `LIMITS.bulkBatchSize`. */
export function chunk<T>(list: readonly T[], size: number = LIMITS.bulkBatchSize): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Hashes each media file once (through the upload cache), so identical bytes under different names upload once. */
export async function digestMedia(
  rows: readonly PostRow[],
  media: MediaStore | null,
  signal?: AbortSignal,
): Promise<Map<string, Digests>> {
  const out = new Map<string, Digests>();
  for (const r of rows) {
    for (const m of r.media) {
      if (m.kind !== 'file' || out.has(m.path)) continue;
      out.set(m.path, await digestFile(m.path, media, signal));
    }
  }
  return out;
}

/** One file's digests, from the upload cache when its size and mtime are unchanged. */
export async function digestFile(
  path: string,
  media: MediaStore | null,
  signal?: AbortSignal,
): Promise<Digests> {
  const st = await statPath(path);
  let d = media?.cachedDigests(path, st.size, st.mtimeMs) ?? null;
  if (!d) {
    d = await hashFile(path, { signal });
    media?.cacheDigests(path, st.size, st.mtimeMs, d);
  }
  return d;
}

export function buildPlan(
  totalRows: number,
  valid: readonly PostRow[],
  problems: readonly RowProblem[],
  digests: ReadonlyMap<string, Digests>,
  uploadedBefore: (sha256: string) => boolean,
): ImportPlan {
  const uploads = new Map<string, { files: Set<string>; path: string; bytes: number; rows: Set<number> }>();
  let fileRefs = 0;
  let assetRefs = 0;
  for (const r of valid) {
    for (const m of r.media) {
      if (m.kind === 'asset') {
        assetRefs += 1;
        continue;
      }
      fileRefs += 1;
      const d = digests.get(m.path);
      if (!d) continue;
      const u = uploads.get(d.sha256) ?? { files: new Set(), path: m.path, bytes: d.size, rows: new Set() };
      u.files.add(m.given);
      u.rows.add(r.row);
      uploads.set(d.sha256, u);
    }
  }
  const bySchedule = new Map<string, { drafts: number; scheduled: { row: number; at: string }[] }>();
  for (const r of valid) {
    for (const t of r.targets) {
      const key = `${t.platform}:${t.social_account_id}`;
      const s = bySchedule.get(key) ?? { drafts: 0, scheduled: [] };
      if (r.action === 'draft') s.drafts += 1;
      else if (r.scheduledAt) s.scheduled.push({ row: r.row, at: r.scheduledAt });
      bySchedule.set(key, s);
    }
  }
  return {
    totalRows,
    validRows: valid.length,
    problems,
    batches: chunk(valid).map((b, i) => ({
      seq: i + 1,
      items: b.length,
      firstRow: b[0]?.row ?? 0,
      lastRow: b.at(-1)?.row ?? 0,
    })),
    uploads: [...uploads].map(([sha256, u]) => ({
      sha256,
      files: [...u.files],
      path: u.path,
      bytes: u.bytes,
      rows: [...u.rows],
      uploadedBefore: uploadedBefore(sha256),
    })),
    assetRefs,
    duplicateFiles: fileRefs - uploads.size,
    schedule: [...bySchedule]
      .map(([target, s]) => ({
        target,
        drafts: s.drafts,
        scheduled: s.scheduled.sort((a, b) => a.at.localeCompare(b.at)),
      }))
      .sort((a, b) => a.target.localeCompare(b.target)),
  };
}
