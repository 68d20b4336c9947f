import type { ApiClient } from '../api/client';
import type { Tools } from '../media/tools';
import { createUploader } from '../media/upload';
import type { Store } from '../store/store';
import { notConnected } from './bridge-fault';
import type { UploadPort } from './ports';

/** Managed uploads through the core's uploader (resumable, deduplicated by hash) on the current client. */
export function createUploadPort(deps: {
  readonly store: Store;
  readonly client: () => ApiClient | null;
  readonly tools?: Tools | undefined;
}): UploadPort & Required<Pick<UploadPort, 'resume'>> {
  return {
    async upload(file, progress) {
      const api = deps.client();
      if (!api) throw notConnected();
      const uploader = createUploader({
        api,
        store: deps.store,
        tools: deps.tools,
        concurrency: 1,
        onEvent: (e) => {
          if (e.type === 'hashing') progress.hash(e.bytes, e.total);
          else if (e.type === 'hashed') progress.hash(file.size, file.size);
          else if (e.type === 'reserved') progress.upload('reserving', 0, file.size);
          else if (e.type === 'progress') progress.upload('uploading', e.sent, e.total);
          else if (e.type === 'uploaded') progress.upload('completing', file.size, file.size);
        },
      });
      const r = await uploader.upload(file.path);
      return { asset_id: r.assetId, public_url: r.asset.public_url, already_uploaded: r.alreadyUploaded };
    },
    async resume() {
      const api = deps.client();
      if (!api) return { finished: 0, failed: 0 };
      // Same scope as `upload` (the client's base URL), so what an earlier session left is found.
      const outcomes = await createUploader({
        api,
        store: deps.store,
        tools: deps.tools,
        concurrency: 1,
      }).resumeUploads();
      const finished = outcomes.filter((x) => x.ok).length;
      return { finished, failed: outcomes.length - finished };
    },
  };
}
