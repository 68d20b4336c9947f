import { describe, expect, it } from 'vitest';
import { errorText } from '../../../../src-main/core/common/error-text';

describe('errorText', () => {
  it('is an error’s own message, for subclasses too, and the string form of anything else', () => {
    class Refused extends Error {}
    expect(errorText(new Error('disk full'))).toBe('disk full');
    expect(errorText(new Refused('no'))).toBe('no');
    expect(errorText('plain text')).toBe('plain text');
    expect(errorText(42)).toBe('42');
    expect(errorText(null)).toBe('null');
    expect(errorText({ toString: () => 'custom' })).toBe('custom');
  });
});
