import { describe, expect, it } from 'vitest';
import {
  parseAction,
  parseMedia,
  parseScheduledAt,
  parseTargets,
} from '../../../../src-main/core/bulk/fields';

const A = '11111111-1111-4111-8111-000000000001';
const B = '11111111-1111-4111-8111-000000000002';

describe('parseTargets', () => {
  it('reads platform:account_id lists and JSON objects', () => {
    expect(parseTargets(`tiktok:${A}; Instagram:${B}`)).toEqual({
      ok: true,
      value: [
        { platform: 'tiktok', social_account_id: A },
        { platform: 'instagram', social_account_id: B },
      ],
    });
    expect(parseTargets([{ platform: 'x', social_account_id: A }])).toMatchObject({ ok: true });
  });
  it('names what is wrong', () => {
    expect(parseTargets('')).toMatchObject({
      ok: false,
      message: 'at least one target is required, as platform:account_id',
    });
    expect(parseTargets(`myspace:${A}`)).toMatchObject({
      ok: false,
      message: expect.stringContaining('platform "myspace" must be one of tiktok'),
    });
    expect(parseTargets('x:123')).toMatchObject({
      ok: false,
      message: expect.stringContaining('account id "123" must be a uuid'),
    });
    expect(parseTargets(A)).toMatchObject({
      ok: false,
      message: expect.stringContaining('must be platform:account_id'),
    });
    expect(parseTargets(`x:${A};x:${A}`)).toMatchObject({
      ok: false,
      message: expect.stringContaining('listed twice'),
    });
  });
});

describe('parseMedia', () => {
  it('tells asset ids from files and resolves files beside the import', () => {
    expect(parseMedia(`a.jpg; ${A.toUpperCase()} ;/abs/b.mp4`, '/data')).toEqual({
      ok: true,
      value: [
        { kind: 'file', given: 'a.jpg', path: '/data/a.jpg' },
        { kind: 'asset', assetId: A },
        { kind: 'file', given: '/abs/b.mp4', path: '/abs/b.mp4' },
      ],
    });
    expect(parseMedia('', '/data')).toEqual({ ok: true, value: [] });
  });
  it('refuses URLs: bulk takes managed uploads only', () => {
    expect(parseMedia('https://example.com/a.jpg', '/d')).toMatchObject({ ok: false });
  });
});

describe('parseScheduledAt', () => {
  it('keeps an ISO instant with offset, normalised to UTC', () => {
    expect(parseScheduledAt('2031-03-01T09:30:00+01:00', 'UTC')).toEqual({
      ok: true,
      value: '2031-03-01T08:30:00.000Z',
    });
  });
  it('reads a local date-time in the given zone, across DST', () => {
    expect(parseScheduledAt('2031-01-15 09:00', 'Europe/Paris')).toEqual({
      ok: true,
      value: '2031-01-15T08:00:00.000Z',
    });
    expect(parseScheduledAt('2031-07-15T09:00', 'Europe/Paris')).toEqual({
      ok: true,
      value: '2031-07-15T07:00:00.000Z',
    });
    expect(parseScheduledAt('2031-07-15 09:00:30', 'America/New_York')).toEqual({
      ok: true,
      value: '2031-07-15T13:00:30.000Z',
    });
  });
  it('refuses a time the clock change skips and a date that does not exist', () => {
    // Europe/Paris jumps from 02:00 to 03:00 on 2031-03-30.
    expect(parseScheduledAt('2031-03-30 02:30', 'Europe/Paris')).toMatchObject({
      ok: false,
      message: expect.stringContaining('does not exist in Europe/Paris'),
    });
    expect(parseScheduledAt('2031-02-30 10:00', 'UTC')).toMatchObject({ ok: false });
    expect(parseScheduledAt('next tuesday', 'UTC')).toMatchObject({
      ok: false,
      message: expect.stringContaining('is not a date-time'),
    });
  });
  it('treats empty as no schedule', () => {
    expect(parseScheduledAt('', 'UTC')).toEqual({ ok: true, value: undefined });
  });
});

describe('parseAction', () => {
  it('defaults from the schedule and refuses publishing', () => {
    expect(parseAction('', true)).toEqual({ ok: true, value: 'schedule' });
    expect(parseAction(undefined, false)).toEqual({ ok: true, value: 'draft' });
    expect(parseAction('Draft', true)).toEqual({ ok: true, value: 'draft' });
    expect(parseAction('publish', true)).toMatchObject({
      ok: false,
      message: expect.stringContaining('bulk cannot publish immediately'),
    });
  });
});
