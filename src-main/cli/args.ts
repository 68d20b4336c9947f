import { InvalidArgumentError, type Command } from 'commander';
import { Platform, PLATFORMS, Uuid, DateTime, type Target } from '../../src-shared/api/common';
import { LIMITS } from '../../src-shared/api/limits';
import type { MediaRef } from '../../src-shared/api/posts';
import { ValidationError } from '../core/api/errors';
import { isTimeZone, parseScheduledAt } from '../core/bulk/fields';
import { unreadableFileSync } from '../core/files';

/** The platform the contract keeps out of `POST /api/cli/posts`: it is reached through automations only. */
export const AUTOMATIONS_ONLY: readonly string[] = ['youtube'];

/** What a new post carries, the same options wherever one is made (`posts create`, `queue add`). */
export function postContentOptions(command: Command): Command {
  return command
    .requiredOption('-c, --caption <text>', `the caption (max ${LIMITS.captionLength} characters)`)
    .option('-t, --target <platform:account_id>', 'a target; repeat or separate with commas', collect, [])
    .option(
      '-m, --media <asset_id|url>',
      'media: an uploaded asset id or a public URL; repeatable',
      collect,
      [],
    )
    .option('--title <text>', 'a title (YouTube-style platforms)');
}

/** Commander collector for repeatable options (`-t a -t b`), also splitting commas. */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

/** A whole number from 1 to `max`; `unit` names what it counts (`--wait abc`: "a whole number of seconds"). */
export function positiveInt(name: string, max?: number, unit?: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < 1 || (max !== undefined && n > max)) {
      const what = unit ? `a whole number of ${unit}` : 'a whole number';
      throw new InvalidArgumentError(
        `${name} must be ${what} from 1${max !== undefined ? ` to ${max}` : ' up'}, not "${value}"`,
      );
    }
    return n;
  };
}

const badArgument = (path: string, message: string): ValidationError =>
  new ValidationError([{ path, message }], null, 'argument');

/**
 * A file the command reads: it must exist, be a file and be readable. Checked before anything is done, so a typo
 * or a permission is exit 2 with the path and the flag, not an ENOENT or EACCES from deep inside.
 */
export function existingFile(path: string, field: string): string {
  const problem = unreadableFileSync(path);
  if (problem) throw badArgument(field, `${problem}: ${path}`);
  return path;
}

/** Post and delivery ids are uuids, as the service mints them: anything else is a typo, refused before a request. */
export function postId(value: string, field: string): string {
  if (!Uuid.safeParse(value).success) {
    throw badArgument(
      field,
      `"${value}" is not a post or delivery id (a uuid, as \`postdesk posts list\` shows)`,
    );
  }
  return value;
}

/** A bulk batch id: a uuid, as the contract says; anything else is refused before a request. */
export function batchId(value: string): string {
  if (!Uuid.safeParse(value).success) {
    throw badArgument(
      'batch_id',
      `"${value}" is not a batch id (a uuid, as \`postdesk bulk import\` prints)`,
    );
  }
  return value;
}

/** The zone local date-times are read in: `TZ` when it names one, else this machine's. */
export function localZoneOf(env: Readonly<Record<string, string | undefined>>): string {
  const tz = env.TZ;
  return tz && isTimeZone(tz) ? tz : Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A schedule time the service would refuse for being past: known here, so nothing is queued for it. */
export function futureDateTime(value: string, field: string, zone?: string, now = Date.now()): string {
  const at = parseDateTime(value, field, zone === undefined ? {} : { zone });
  if (Date.parse(at) <= now) {
    throw badArgument(
      field,
      `${value} is in the past (it is ${new Date(now).toISOString()} now); a schedule must be in the future`,
    );
  }
  return at;
}

/** `platform:account_id` → a target; errors name the field and what is allowed. */
export function parseTargets(values: readonly string[], field = 'target'): Target[] {
  return values.map((v, i) => {
    const at = v.indexOf(':');
    const platform = v.slice(0, at);
    const id = v.slice(at + 1);
    const path = `${field}[${i}]`;
    if (at < 1 || !Platform.safeParse(platform).success) {
      throw new ValidationError(
        [
          {
            path,
            message: `"${v}" must be platform:account_id with platform one of ${PLATFORMS.join(', ')}`,
          },
        ],
        null,
        'argument',
      );
    }
    if (!Uuid.safeParse(id).success) {
      throw new ValidationError(
        [{ path, message: `account id "${id}" must be a uuid (see \`postdesk accounts\`)` }],
        null,
        'argument',
      );
    }
    return { platform: platform as Platform, social_account_id: id };
  });
}

/** `--target` of a command that creates a post (`posts create`, `queue add`): at least one, each parsed. */
export function requiredTargets(values: readonly string[]): Target[] {
  if (values.length === 0) {
    throw new ValidationError(
      [
        {
          path: 'target',
          message: `at least 1 and at most ${LIMITS.addTargetsPerUpdate} --target platform:account_id`,
        },
      ],
      null,
      'argument',
    );
  }
  return parseTargets(values);
}

/** `--media`: a managed upload's asset id (uuid) or a public http(s) URL. */
export function parseMedia(values: readonly string[]): MediaRef[] {
  return values.map((v, i) => {
    if (Uuid.safeParse(v).success) return { asset_id: v };
    if (/^https?:\/\//i.test(v)) return { url: v };
    throw new ValidationError(
      [{ path: `media[${i}]`, message: `"${v}" must be an asset id (uuid) or an http(s) URL` }],
      null,
      'argument',
    );
  });
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A date-time option in the forms people type: ISO 8601 with an offset (taken as it is), or a local
 * `2035-01-15 09:00` read in `zone` (a time the zone skips is refused, not shifted); with `day`, a date alone
 * too: its start (`from`), or the start of the next day (`to`, so the whole day is in). Answers an exact instant.
 */
export function parseDateTime(
  value: string,
  field: string,
  o: { zone?: string; day?: 'start' | 'end' } = {},
): string {
  const text = value.trim();
  if (DateTime.safeParse(text).success) return text;
  const example = o.day
    ? '2030-01-01, 2030-01-01 09:00 or 2030-01-01T09:00:00Z'
    : '2030-01-01 09:00 or 2030-01-01T09:00:00Z';
  const day = DATE_ONLY.exec(text);
  const zone = o.zone;
  if (zone && (o.day || !day)) {
    let local = text;
    if (day && o.day === 'end') {
      const next = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]) + 1));
      local = next.toISOString().slice(0, 10);
    }
    const parsed = parseScheduledAt(day ? `${local} 00:00` : local, zone);
    if (parsed.ok && parsed.value) return parsed.value;
    if (!parsed.ok && !/is not a date-time/.test(parsed.message)) throw badArgument(field, parsed.message);
  }
  throw badArgument(
    field,
    `"${value}" must be a date-time such as ${example}${zone ? ` (local times in ${zone})` : ''}`,
  );
}

/** How an answer states the zone a typed local time was read in: nothing when the value carried its offset. */
export function zoneNote(value: string, zone: string): string {
  return DateTime.safeParse(value.trim()).success ? '' : ` (${value.trim()} read in ${zone})`;
}
