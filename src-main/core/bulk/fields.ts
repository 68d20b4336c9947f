import { TZDate } from '@date-fns/tz';
import { isAbsolute, resolve } from 'node:path';
import { DateTime, PLATFORMS, Platform, Uuid } from '../../../src-shared/api/common';
import type { Target } from '../../../src-shared/api/common';

/** Field-level parsing of import rows. Each parser returns the value or a message naming what is wrong. */
export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };
const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(message: string): Parsed<T> => ({ ok: false, message });

/** `a;b;c` (CSV) or a JSON array, as trimmed non-empty strings. */
export function listOf(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value))
    return value.every((v) => typeof v === 'string') ? value.map((v) => v.trim()).filter(Boolean) : null;
  if (typeof value !== 'string') return null;
  return value
    .split(';')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** `platform:account_id;…`, or in JSON an array of those strings or of `{platform, social_account_id}`. */
export function parseTargets(value: unknown): Parsed<Target[]> {
  const entries: unknown[] = Array.isArray(value) ? value : (listOf(value) ?? []);
  if (entries.length === 0) return bad('at least one target is required, as platform:account_id');
  const out: Target[] = [];
  for (const e of entries) {
    let platform: unknown;
    let id: unknown;
    if (typeof e === 'string') {
      const at = e.trim().indexOf(':');
      platform = at > 0 ? e.trim().slice(0, at).trim().toLowerCase() : '';
      id =
        at > 0
          ? e
              .trim()
              .slice(at + 1)
              .trim()
          : '';
      if (at <= 0) return bad(`"${e}" must be platform:account_id`);
    } else if (e && typeof e === 'object') {
      platform = (e as { platform?: unknown }).platform;
      id = (e as { social_account_id?: unknown }).social_account_id;
    } else {
      return bad('each target must be platform:account_id');
    }
    if (!Platform.safeParse(platform).success) {
      return bad(`platform "${String(platform)}" must be one of ${PLATFORMS.join(', ')}`);
    }
    if (!Uuid.safeParse(id).success)
      return bad(`account id "${String(id)}" must be a uuid (see \`postdesk accounts\`)`);
    const target: Target = { platform: platform as Platform, social_account_id: id as string };
    if (out.some((t) => t.platform === target.platform && t.social_account_id === target.social_account_id)) {
      return bad(`${target.platform}:${target.social_account_id} is listed twice`);
    }
    out.push(target);
  }
  return ok(out);
}

export type MediaSpec =
  | { readonly kind: 'asset'; readonly assetId: string }
  | { readonly kind: 'file'; readonly given: string; readonly path: string };

/** Media by asset id (uuid) or by file path, relative to the import file's folder. URLs are refused: bulk takes managed uploads only. */
export function parseMedia(value: unknown, baseDir: string): Parsed<MediaSpec[]> {
  const tokens = listOf(value);
  if (tokens === null) return bad('must be file paths or asset ids separated by ";"');
  const out: MediaSpec[] = [];
  for (const t of tokens) {
    if (Uuid.safeParse(t).success) out.push({ kind: 'asset', assetId: t.toLowerCase() });
    else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) {
      return bad(`"${t}": bulk media must be files or asset ids of managed uploads, not URLs`);
    } else out.push({ kind: 'file', given: t, path: isAbsolute(t) ? t : resolve(baseDir, t) });
  }
  return ok(out);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * `scheduled_at` as an exact instant (ISO, UTC). An ISO date-time with offset is taken as it is; a local
 * `YYYY-MM-DD HH:mm[:ss]` is read in `zone`, and a time that the zone skips (a DST gap) is refused rather than shifted.
 */
export function parseScheduledAt(value: unknown, zone: string): Parsed<string | undefined> {
  if (value === undefined || value === null || value === '') return ok(undefined);
  if (typeof value !== 'string') return bad('must be a date-time string');
  const text = value.trim();
  if (DateTime.safeParse(text).success) return ok(new Date(text).toISOString());
  const m = LOCAL.exec(text);
  if (!m) {
    return bad(
      `"${text}" is not a date-time; write 2030-01-31T09:00:00+01:00, or 2030-01-31 09:00 with a timezone`,
    );
  }
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const at = new TZDate(y, mo - 1, d, h, mi, s, zone);
  if (Number.isNaN(at.getTime())) return bad(`"${text}" is not a valid date`);
  // TZDate rolls invalid dates (Feb 30) and DST gaps forward; reading the fields back catches both.
  if (
    at.getFullYear() !== y ||
    at.getMonth() !== mo - 1 ||
    at.getDate() !== d ||
    at.getHours() !== h ||
    at.getMinutes() !== mi
  ) {
    return bad(`"${text}" does not exist in ${zone} (an invalid date, or a clock change skips it)`);
  }
  return ok(new Date(at.getTime()).toISOString());
}

export type Action = 'draft' | 'schedule';

export function parseAction(value: unknown, hasSchedule: boolean): Parsed<Action> {
  if (value === undefined || value === null || value === '') return ok(hasSchedule ? 'schedule' : 'draft');
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (v === 'draft' || v === 'schedule') return ok(v);
  if (v === 'publish' || v === 'now') {
    return bad(
      'bulk cannot publish immediately; use draft or schedule (or `postdesk posts create` to publish now)',
    );
  }
  return bad(`"${String(value)}" must be draft or schedule`);
}
