import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../../../src-main/core/api/redact';
import { createLineLogger, silentLogger } from '../../../../src-main/core/common/logger';

const AT = new Date('2030-05-06T07:08:09.010Z');

function capture(level?: Parameters<typeof createLineLogger>[1]) {
  const lines: string[] = [];
  const log = createLineLogger(
    (l) => lines.push(l),
    level,
    () => AT,
  );
  return { lines, log };
}

describe('createLineLogger', () => {
  it('writes one line per entry: time, level, message and the fields as JSON', () => {
    const { lines, log } = capture();
    log.info('replay finished', { sent: 2, scope: 'sandbox' });
    log.warn('no fields');
    log.error('empty fields', {});
    expect(lines).toEqual([
      '2030-05-06T07:08:09.010Z info replay finished {"sent":2,"scope":"sandbox"}',
      '2030-05-06T07:08:09.010Z warn no fields',
      '2030-05-06T07:08:09.010Z error empty fields',
    ]);
  });

  it('drops what is below its level (info by default)', () => {
    const byDefault = capture();
    byDefault.log.debug('hidden');
    byDefault.log.info('shown');
    expect(byDefault.lines.map((l) => l.split(' ')[1])).toEqual(['info']);

    const warn = capture('warn');
    warn.log.debug('a');
    warn.log.info('b');
    warn.log.warn('c');
    warn.log.error('d');
    expect(warn.lines.map((l) => l.split(' ')[1])).toEqual(['warn', 'error']);

    const debug = capture('debug');
    debug.log.debug('e');
    expect(debug.lines).toHaveLength(1);
  });

  it('keeps an error in the fields as its name and message', () => {
    const { lines, log } = capture();
    log.error('flush failed', { error: new RangeError('too far') });
    expect(lines[0]).toContain('{"error":{"name":"RangeError","message":"too far"}}');
  });

  it('still writes the line when the fields cannot be serialized', () => {
    const { lines, log } = capture();
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    log.warn('odd fields', loop);
    expect(lines).toEqual(['2030-05-06T07:08:09.010Z warn odd fields {"fields":"unserializable"}']);
  });

  it('scrubs registered secrets and credential-shaped text from the message and the fields', () => {
    const key = `pd_live_${'k'.repeat(24)}`;
    registerSecret(key);
    const { lines, log } = capture();
    log.error(`the service echoed ${key}`, {
      header: 'Authorization: Bearer abc.def.ghi',
      proxy: 'http://me:hunter22@proxy.example:8080',
      error: new Error(`rejected key ${key}`),
    });
    const line = lines[0] as string;
    expect(line).not.toContain(key);
    expect(line).not.toContain('abc.def.ghi');
    expect(line).not.toContain('hunter22');
    expect(line).toContain('[REDACTED]');
    expect(line).toContain('the service echoed');
  });
});

describe('silentLogger', () => {
  it('takes every level without writing or throwing', () => {
    expect(() => {
      silentLogger.debug('a');
      silentLogger.info('b', { x: 1 });
      silentLogger.warn('c');
      silentLogger.error('d', { error: new Error('e') });
    }).not.toThrow();
  });
});
