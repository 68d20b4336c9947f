import { describe, expect, it } from 'vitest';
import { UploadTracker, UploadsClosedError } from '../../../src-main/app/upload-tracker';
import { MemoryLog } from '../../helpers/shell-fakes';

const deferred = () => {
  let resolve = (): void => {};
  let reject = (_e: Error): void => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('UploadTracker', () => {
  it('counts uploads while they run, and passes their results and errors through', async () => {
    const tracker = new UploadTracker(new MemoryLog());
    let changes = 0;
    tracker.onDidChange(() => (changes += 1));
    const a = deferred();
    const b = deferred();
    const first = tracker.track('a.jpg', () => a.promise.then(() => 'asset-a'));
    const second = tracker.track('b.mp4', () => b.promise);
    expect(tracker.activeUploads().map((u) => u.name)).toEqual(['a.jpg', 'b.mp4']);
    a.resolve();
    await expect(first).resolves.toBe('asset-a');
    b.reject(new Error('PUT refused'));
    await expect(second).rejects.toThrow('PUT refused');
    expect(tracker.activeUploads()).toEqual([]);
    expect(changes).toBe(4);
  });

  it('drain waits for uploads in progress and refuses new ones', async () => {
    const tracker = new UploadTracker(new MemoryLog());
    const a = deferred();
    void tracker.track('a.jpg', () => a.promise);
    let drained = false;
    const draining = tracker.drain({ graceMs: 5_000 }).then(() => (drained = true));
    await expect(tracker.track('late.jpg', async () => 'x')).rejects.toBeInstanceOf(UploadsClosedError);
    await new Promise((r) => setTimeout(r, 20));
    expect(drained).toBe(false);
    a.resolve();
    await draining;
    expect(drained).toBe(true);
  });

  it('drain gives up after the grace period; failing the leftover logs why', async () => {
    const log = new MemoryLog();
    const tracker = new UploadTracker(log);
    void tracker.track('huge.mp4', () => new Promise<void>(() => {}));
    const started = Date.now();
    await tracker.drain({ graceMs: 30 });
    expect(Date.now() - started).toBeLessThan(1_000);
    const [left] = tracker.activeUploads();
    await tracker.failUpload(left?.id ?? '', 'Postdesk quit');
    expect(tracker.activeUploads()).toEqual([]);
    expect(
      log.entries.some((e) => e.level === 'warn' && JSON.stringify(e.fields).includes('Postdesk quit')),
    ).toBe(true);
  });
});
