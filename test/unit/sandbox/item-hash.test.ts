import { describe, expect, it } from 'vitest';
import { hashBulkItem } from '../../../src-sandbox/posts/item-hash';

describe('hashBulkItem', () => {
  // Stored with every bulk item: the hash an older build stored must still match the same item, or a
  // retry after an upgrade is refused with 409. The value is what the sandbox computed before this hash
  // was rewritten for speed (keys sorted, undefined members left out, then sha256 of JSON.stringify).
  const item = {
    targets: [
      {
        social_account_id: 'acc-x',
        platform: 'x',
        settings: { reply_settings: 'following', z: [1, 'two', null, { b: 2, a: 1 }] },
      },
    ],
    item_key: 'row-7',
    caption: 'Zürich "quoted" \\ and ✓ emoji 🎉\nnew line',
    scheduled_at: '2031-01-01T09:00:00.000Z',
    title: undefined,
    media: [{ asset_id: 'asset-1' }],
  };

  it('is the hash earlier builds stored for the same item', () => {
    expect(hashBulkItem(item)).toBe('696bc91e0b7e4233bb6cc0dfb45e9a1d527e655a319435100b136bf59aebc6a1');
  });

  it('does not depend on key order or on undefined members, and does on every value', () => {
    const reordered = Object.fromEntries(Object.entries({ ...item, extra: undefined }).reverse());
    expect(hashBulkItem(reordered)).toBe(hashBulkItem(item));
    expect(hashBulkItem({ ...item, caption: `${item.caption} ` })).not.toBe(hashBulkItem(item));
    expect(hashBulkItem({ ...item, media: [] })).not.toBe(hashBulkItem(item));
  });
});
