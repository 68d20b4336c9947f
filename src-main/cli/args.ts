import { InvalidArgumentError } from 'commander';
import { Platform, PLATFORMS, Uuid, DateTime, type Target } from '../../src-shared/api/common';
import type { MediaRef } from '../../src-shared/api/posts';
import { ValidationError } from '../core/api/errors';

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

export function positiveInt(name: string, max?: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || (max !== undefined && n > max)) {
      throw new InvalidArgumentError(`${name} must be an integer from 1 to ${max ?? 'any'}`);
    }
    return n;
  };
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
