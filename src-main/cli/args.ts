import { InvalidArgumentError } from 'commander';
import { Platform, PLATFORMS, Uuid, DateTime, type Target } from '../../src-shared/api/common';
import type { MediaRef } from '../../src-shared/api/posts';
import { ValidationError } from '../core/api/errors';
import { statPathSync } from '../core/files';

/** The platform the contract keeps out of `POST /api/cli/posts`: it is reached through automations only. */
export const AUTOMATIONS_ONLY: readonly string[] = ['youtube'];

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

/**
 * A file the command reads: it must exist and be a file. Checked before anything is done, so a typo is exit 2
 * with the path and the flag, not an ENOENT from deep inside.
 */
export function existingFile(path: string, field: string): string {
  const st = statPathSync(path);
  const problem = !st ? 'no such file' : st.isDirectory() ? 'is a folder, not a file' : null;
  if (problem) {
    throw new ValidationError([{ path: field, message: `${problem}: ${path}` }], null, 'argument');
  }
  return path;
}

/** A schedule time the service would refuse for being past: known here, so nothing is queued for it. */
export function futureDateTime(value: string, field: string, now = Date.now()): string {
  parseDateTime(value, field);
  if (Date.parse(value) <= now) {
    throw new ValidationError(
      [
        {
          path: field,
          message: `${value} is in the past (it is ${new Date(now).toISOString()} now); a schedule must be in the future`,
        },
      ],
      null,
      'argument',
    );
  }
  return value;
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

/** A date-time option; must carry an offset (e.g. Z or +02:00) so the service gets an exact instant. */
export function parseDateTime(value: string, field: string): string {
  if (!DateTime.safeParse(value).success) {
    throw new ValidationError(
      [
        {
          path: field,
          message: `"${value}" must be an ISO 8601 date-time with offset, e.g. 2030-01-01T09:00:00Z`,
        },
      ],
      null,
      'argument',
    );
  }
  return value;
}
