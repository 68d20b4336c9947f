import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src-shared/api/limits';
import { countFor } from '../../../src-shared/platform-check';
import { setDatePreferences } from '../../../src-renderer/src/app/format';
import { faceOf, initialsOf } from '../../../src-renderer/src/features/compose/account-face';
import { checkCompose } from '../../../src-renderer/src/features/compose/compose-checks';
import {
  captionParts,
  firstLink,
  xDisplayUrl,
} from '../../../src-renderer/src/features/compose/preview-text';
import { tomorrowAt, tomorrowLabel } from '../../../src-renderer/src/features/compose/quick-times';

afterEach(() => setDatePreferences({ timeZone: null, clock: 'auto' }));

describe("the X preview's links", () => {
  const url = 'https://www.example.com/guides/a-rather-long-address-that-goes-on?campaign=launch';

  it('shows each link as X does, without its scheme and cut short, while X counts it as 23', () => {
    const parts = captionParts(`Read ${url} now`, true);
    expect(parts).toEqual([{ text: 'Read ' }, { text: 'example.com/guides/a-r…', url }, { text: ' now' }]);
    expect(countFor('x', `Read ${url} now`).count).toBe(5 + 23 + 4);
    // A short one stays whole; other platforms show links as typed.
    expect(xDisplayUrl('https://ex.co/a')).toBe('ex.co/a');
    expect(captionParts(`Read ${url}`, false).map((p) => p.text)).toEqual(['Read ', url]);
  });

  it('finds the first link for the card, with its site and a title from its address', () => {
    expect(firstLink(`See ${url} and https://other.org`)).toEqual({
      url,
      site: 'example.com',
      title: 'A rather long address that goes on',
    });
    expect(firstLink('No link here.')).toBeNull();
    expect(firstLink('https://example.org')?.title).toBe('example.org');
  });
});

describe("an account's face", () => {
  it('takes the handle from a trailing "(@handle)", and the display name from the rest', () => {
    expect(faceOf('Demo X (@postdesk_demo)')).toEqual({
      name: 'Demo X',
      handle: '@postdesk_demo',
      initials: 'DX',
    });
    expect(faceOf('Demo LinkedIn (Postdesk Demo)')).toEqual({
      name: 'Demo LinkedIn (Postdesk Demo)',
      handle: null,
      initials: 'DL',
    });
    expect(initialsOf('  ')).toBe('?');
  });
});

describe('Tomorrow 9:00', () => {
  it("is 9:00 on the next calendar day in the person's zone, not the computer's", () => {
    setDatePreferences({ timeZone: 'Pacific/Auckland', clock: 'auto' });
    // 20:00 UTC on the 27th is already 09:00 on the 28th in Auckland: tomorrow there is the 29th.
    expect(tomorrowAt(Date.parse('2026-11-27T20:00:00Z'))).toBe('2026-11-29T09:00');
    setDatePreferences({ timeZone: 'America/Los_Angeles', clock: 'auto' });
    expect(tomorrowAt(Date.parse('2026-11-27T20:00:00Z'))).toBe('2026-11-28T09:00');
    // Across a month's and a year's end.
    expect(tomorrowAt(Date.parse('2026-12-31T20:00:00Z'))).toBe('2027-01-01T09:00');
  });

  it('is said in the 12- or 24-hour clock the person chose', () => {
    setDatePreferences({ timeZone: null, clock: '24h' });
    expect(tomorrowLabel()).toMatch(/^Tomorrow 0?9:00$/);
    setDatePreferences({ timeZone: null, clock: '12h' });
    expect(tomorrowLabel()).toMatch(/^Tomorrow 9:00\s?AM$/i);
  });
});

describe('what holds a post back (the same for Send and Ctrl/Cmd+Enter)', () => {
  const base = {
    caption: 'Hello',
    platforms: ['x'] as const,
    targetCount: 1,
    media: [],
    when: 'now' as const,
    scheduledAt: null,
    now: Date.parse('2026-11-27T10:00:00Z'),
  };

  it('lets a ready post go', () => {
    expect(checkCompose(base)).toEqual({ blockers: [], warnings: [] });
  });

  it('names what is missing and the limits, and judges the time by the service clock it is given', () => {
    expect(checkCompose({ ...base, targetCount: 0 }).blockers).toEqual(['Pick at least one account.']);
    expect(checkCompose({ ...base, caption: 'a'.repeat(LIMITS.captionLength + 1) }).blockers).toEqual([
      `The caption is over ${LIMITS.captionLength} characters.`,
    ]);
    expect(checkCompose({ ...base, targetCount: LIMITS.addTargetsPerUpdate + 1 }).blockers).toEqual([
      `Pick at most ${LIMITS.addTargetsPerUpdate} accounts.`,
    ]);
    const at = { ...base, when: 'schedule' as const, scheduledAt: '2026-11-27T09:59:00.000Z' };
    expect(checkCompose(at).blockers).toEqual(['Pick a time in the future.']);
    expect(checkCompose({ ...at, now: Date.parse('2026-11-27T09:00:00Z') }).blockers).toEqual([]);
    expect(checkCompose({ ...base, media: [{ kind: 'image', phase: 'uploading' }] }).blockers).toEqual([
      'Waiting for uploads to finish…',
    ]);
  });

  it('blocks what a platform certainly refuses, and only warns of the rest', () => {
    expect(checkCompose({ ...base, platforms: ['instagram'] }).blockers).toEqual([
      'Instagram needs at least 1 image or video; this post has none.',
    ]);
    // The caption's length on X is said under the caption, not among the checks.
    expect(checkCompose({ ...base, caption: 'a'.repeat(300) })).toEqual({ blockers: [], warnings: [] });
  });
});
