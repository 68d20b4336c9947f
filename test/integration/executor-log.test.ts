import { afterEach, describe, expect, it } from 'vitest';
import type { LogFields, Logger, LogLevel } from '../../src-main/core/common/logger';
import { startHarness, type Harness } from './executor-harness';

const HOUR = 3_600_000;

/** The executor's log as a list, so a test can read what it reported. */
function recordingLogger() {
  const lines: { level: LogLevel; message: string; fields?: LogFields | undefined }[] = [];
  const at =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      lines.push({ level, message, fields });
    };
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines, text: () => lines.map((l) => `${l.level} ${l.message}`) };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the executor leaves a trace of every failure it does not rethrow', () => {
  it('logs an unreachable service and goes on when it is back', async () => {
    h = await startHarness();
    const log = recordingLogger();
    const { executor } = h.another({ logger: log.logger });
    await h.sb.control.faults({ error_rate: 1 });
    await executor.tick();
    expect(executor.status().state).toBe('offline');
    expect(log.text()).toContainEqual(
      expect.stringMatching(/^warn could not reach the service to register; the next pass tries again: /),
    );

    await h.sb.control.faults({});
    await executor.runOnce();
    await h.advance(HOUR);
    await executor.runOnce();
    expect(log.text()).toContainEqual(expect.stringMatching(/^info registered as executor /));
    expect(log.text()).toContainEqual(expect.stringMatching(/^info completed: Hourly test run /));
  });

  it('logs a throwing listener, and the other listeners and the run go on', async () => {
    h = await startHarness();
    const log = recordingLogger();
    const { executor } = h.another({ logger: log.logger });
    executor.onDidStartRun(() => {
      throw new Error('a tray that fell over');
    });
    const finished: string[] = [];
    executor.onDidFinishRun((r) => finished.push(r.automationId));
    await executor.runOnce();
    await h.advance(HOUR);
    await executor.runOnce();
    expect(finished).toHaveLength(1);
    expect(log.lines).toContainEqual({
      level: 'error',
      message: 'an executor event listener failed: a tray that fell over',
      fields: undefined,
    });
  });
});
