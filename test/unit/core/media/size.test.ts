import { describe, expect, it } from 'vitest';
import { parseSize } from '../../../../src-main/core/media/size';
import { formatBytes } from '../../../../src-shared/format-bytes';

describe('formatBytes', () => {
  it('shows whole units only when exact', () => {
    expect(formatBytes(200 * 1024 * 1024)).toBe('200 MiB');
    expect(formatBytes(Math.round(230.5 * 1024 * 1024))).toBe('230.5 MiB');
    expect(formatBytes(200 * 1024 * 1024 + 1)).toBe('200.0 MiB');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
  });
});

describe('parseSize', () => {
  it('reads binary and decimal units', () => {
    expect(parseSize('64MiB')).toBe(67108864);
    expect(parseSize('64M')).toBe(67108864);
    expect(parseSize('64 mb')).toBe(64_000_000);
    expect(parseSize('500K')).toBe(512_000);
    expect(parseSize('1.5GiB')).toBe(1.5 * 1024 ** 3);
    expect(parseSize('12345')).toBe(12345);
  });
  it('refuses what is not a size', () => {
    expect(() => parseSize('big')).toThrow(/not a size/);
    expect(() => parseSize('12 parsecs')).toThrow(/not a size/);
    expect(() => parseSize('0')).toThrow(/positive/);
  });
});
