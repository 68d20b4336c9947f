import { describe, expect, it } from 'vitest';
import { deliveryFits, judge, normalText, type Window } from '../../../../src-main/core/outbox/match';
import type { CreatePostRequest, Delivery } from '../../../../src-shared/api/posts';

const XA = '11111111-1111-4111-8111-000000000005';
const LA = '11111111-1111-4111-8111-000000000004';
const ASSET = '22222222-2222-4222-8222-000000000001';
const T0 = Date.parse('2030-01-01T12:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

const REQ: CreatePostRequest = {
  caption: 'Café \uD83D night',
  media: [{ asset_id: ASSET }],
  targets: [
    { platform: 'x', social_account_id: XA },
    { platform: 'linkedin', social_account_id: LA },
  ],
};

let seq = 0;
/** A delivery as the service lists it: the lone surrogate replaced, as SQLite stores it. */
function delivery(
  postId: string,
  platform: 'x' | 'linkedin',
  s: number,
  over: Partial<Delivery> = {},
): Delivery {
  return {
    id: `d${++seq}`,
    post_id: postId,
    status: 'posted',
    platform,
    social_account_id: platform === 'x' ? XA : LA,
    caption: 'Cafe\u0301 \uFFFD night',
    media: [{ asset_id: ASSET, url: 'https://media.example/1.jpg' }],
    scheduled_at: null,
    created_at: at(s),
    updated_at: at(s),
    ...over,
  };
}
const ours = (postId: string, s: number, over: Partial<Delivery> = {}) => [
  delivery(postId, 'x', s, over),
  delivery(postId, 'linkedin', s, over),
];
const filler = (n: number, platform: 'x' | 'linkedin', from: number) =>
  Array.from({ length: n }, (_, i) =>
    delivery(`f-${platform}-${from}-${i}`, platform, from + n - i, { caption: `other ${i}` }),
  );

/** The four status windows of each platform; `full` when they answered a whole page. */
function windows(byPlatform: Record<string, Delivery[]>): Window[] {
  return Object.entries(byPlatform).flatMap(([platform, ds]) =>
    ['scheduled', 'retry_scheduled', 'posted', 'failed'].map((status) => {
      const deliveries = ds.filter((d) => d.status === status).slice(0, 100);
      return { platform, status, deliveries, full: deliveries.length >= 100 };
    }),
  );
}
const ctx = (over: Partial<Parameters<typeof judge>[2]> = {}) => ({
  known: new Set<string>(),
  taken: new Set<string>(),
  fenceAt: T0,
  slackMs: 60_000,
  ...over,
});

describe('normalText and deliveryFits', () => {
  it('compares captions as the service stores them: lone surrogates, composition, line endings, edge spaces', () => {
    expect(normalText('a\uD800b')).toBe('a\uFFFDb');
    expect(normalText('a\uDC00')).toBe('a\uFFFD');
    expect(normalText('😀')).toBe('😀');
    expect(normalText(' e\u0301\r\nx ')).toBe('é\nx');
    expect(deliveryFits(delivery('p', 'x', 1), REQ)).toBe(true);
  });

  it('holds the targets, the title and the managed media against it, but not a re-hosted URL', () => {
    expect(deliveryFits(delivery('p', 'x', 1, { social_account_id: LA }), REQ)).toBe(false);
    expect(deliveryFits(delivery('p', 'x', 1, { caption: 'Café ? night' }), REQ)).toBe(false);
    expect(deliveryFits(delivery('p', 'x', 1, { media: [] }), REQ)).toBe(false);
    expect(deliveryFits(delivery('p', 'x', 1, { media: [{ asset_id: XA, url: 'u' }] }), REQ)).toBe(false);
    expect(deliveryFits({ ...delivery('p', 'x', 1), title: 'Launch' } as Delivery, REQ)).toBe(false);
    expect(deliveryFits({ ...delivery('p', 'x', 1), title: null } as Delivery, REQ)).toBe(true);
    // A listing that leaves out media says nothing against it.
    const { media: _media, ...bare } = delivery('p', 'x', 1);
    expect(deliveryFits(bare as Delivery, REQ)).toBe(true);
    const byUrl: CreatePostRequest = { ...REQ, media: [{ url: 'https://cdn.example/a.jpg' }] };
    expect(
      deliveryFits(delivery('p', 'x', 1, { media: [{ url: 'https://rehost.example/z.jpg' }] }), byUrl),
    ).toBe(true);
  });
});

describe('judge', () => {
  it('finds the post behind 120 newer deliveries when the status and platform narrow the lists', () => {
    const newer = [...filler(60, 'x', 10), ...filler(60, 'linkedin', 10)].map((d) => ({
      ...d,
      status: 'scheduled' as const,
    }));
    const v = judge(
      windows({
        x: [...newer.filter((d) => d.platform === 'x'), ...ours('p1', 1).slice(0, 1)],
        linkedin: [...newer.filter((d) => d.platform === 'linkedin'), ...ours('p1', 1).slice(1)],
      }),
      REQ,
      ctx(),
    );
    expect(v).toMatchObject({ kind: 'found', postId: 'p1' });
  });

  it('skips identical posts that were there before, that another entry owns, or that predate the send', () => {
    const all = [
      ...ours('before', 0),
      ...ours('owned', 2),
      ...ours('old', -120),
      ...ours('mine', 3),
      ...ours('later', 4),
    ];
    const split = {
      x: all.filter((d) => d.platform === 'x'),
      linkedin: all.filter((d) => d.platform === 'linkedin'),
    };
    const v = judge(windows(split), REQ, ctx({ known: new Set(['before']), taken: new Set(['owned']) }));
    expect(v).toMatchObject({ kind: 'found', postId: 'mine' });
    expect(v.kind === 'found' && v.socialPostIds).toHaveLength(2);
  });

  it('a window that is not full, or that reaches back before the send, proves the post was never made', () => {
    expect(judge(windows({ x: filler(99, 'x', 1), linkedin: [] }), REQ, ctx())).toEqual({ kind: 'absent' });
    // Full, but its oldest is older than the send (minus the slack between the service's clocks).
    const reaching = [...filler(99, 'x', 1), delivery('ancient', 'x', -600, { caption: 'old' })];
    expect(judge(windows({ x: reaching, linkedin: filler(100, 'linkedin', 1) }), REQ, ctx())).toEqual({
      kind: 'absent',
    });
  });

  it('a full window of newer deliveries is unknown, never absent', () => {
    const busy = { x: filler(100, 'x', 1), linkedin: filler(100, 'linkedin', 1) };
    expect(judge(windows(busy), REQ, ctx())).toEqual({ kind: 'unknown', reason: 'full-window' });
    // Without anything seen before the send, no full window can reach back before it.
    const old = { x: filler(100, 'x', -900), linkedin: filler(100, 'linkedin', -900) };
    expect(judge(windows(old), REQ, ctx({ fenceAt: null }))).toEqual({
      kind: 'unknown',
      reason: 'full-window',
    });
    expect(judge(windows(old), REQ, ctx())).toEqual({ kind: 'absent' });
  });

  it('half of a fitting post, its other half out of sight, is unknown', () => {
    const [x] = ours('half', 2);
    const v = judge(windows({ x: [x!], linkedin: filler(100, 'linkedin', 1) }), REQ, ctx());
    expect(v).toEqual({ kind: 'unknown', reason: 'partial-match' });
  });

  it('a post that also went to an account the request did not name is not ours', () => {
    const other = '11111111-1111-4111-8111-0000000000ff';
    const wider = [...ours('wider', 2), delivery('wider', 'x', 2, { social_account_id: other })];
    const v = judge(
      windows({
        x: wider.filter((d) => d.platform === 'x'),
        linkedin: wider.filter((d) => d.platform === 'linkedin'),
      }),
      REQ,
      ctx(),
    );
    expect(v).toEqual({ kind: 'absent' });
  });
});
