/**
 * Which media uploads are in progress in this process, so a quit or an update waits for them. Uploads are
 * tracked where they enter: the bridge's `media:upload` calls, and the resumption of uploads an earlier
 * session left unfinished, which the bridge runs on each connection (both wired in main.ts). Once the
 * drain starts, new ones are refused.
 */
import type { ActiveUpload, Logger, UploadQueueControl } from './capabilities';
import { Emitter } from '../core/common/events';

export class UploadsClosedError extends Error {
  constructor() {
    super('Postdesk is quitting: the upload was not started.');
    this.name = 'UploadsClosedError';
  }
}

export class UploadTracker implements UploadQueueControl {
  private readonly active = new Map<string, { upload: ActiveUpload; ended: Promise<void> }>();
  private closed = false;
  private next = 0;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: Logger) {}

  /** Runs `work` as a tracked upload; refused once the drain has started. */
  async track<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (this.closed) throw new UploadsClosedError();
    const id = `upload-${++this.next}`;
    const result = Promise.resolve().then(work);
    this.active.set(id, {
      upload: { id, name },
      ended: result.then(
        () => undefined,
        () => undefined,
      ),
    });
    this.changed.fire();
    try {
      return await result;
    } finally {
      this.active.delete(id);
      this.changed.fire();
    }
  }

  activeUploads(): readonly ActiveUpload[] {
    return [...this.active.values()].map((a) => a.upload);
  }

  async drain(opts: Readonly<{ graceMs: number }>): Promise<void> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.active.values()].map((a) => a.ended)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, opts.graceMs))),
    ]);
    clearTimeout(timer);
  }

  /**
   * An upload that outlived the grace period. The uploader keeps each reservation and its progress in
   * the store, so the file is not lost: it is resumed (or expires on the service) after the restart.
   */
  async failUpload(id: string, reason: string): Promise<void> {
    const a = this.active.get(id);
    if (!a) return;
    this.log.warn('upload interrupted by quit; its state stays in the store for resuming', {
      upload: a.upload.name,
      reason,
    });
    this.active.delete(id);
    this.changed.fire();
  }
}
