import { basename, extname, join } from 'node:path';
import { convertToMp4 } from '../media/convert';
import { detectFile } from '../media/detect';
import { hashFile } from '../media/hash';
import { putFile } from '../media/put';
import type { Tools } from '../media/tools';
import type { ExecutorMedia } from './media-port';
import { statPath } from '../files';

/** Puts the core media pipeline (src-main/core/media) behind the executor's media seam. */
export function createCoreMedia(o: { tools?: Tools } = {}): ExecutorMedia {
  return {
    async inspect(file) {
      const [st, detected] = await Promise.all([statPath(file), detectFile(file)]);
      if (!st.isFile()) throw new Error(`${basename(file)} is not a file`);
      return { bytes: st.size, contentType: detected.mime };
    },
    async hash(file) {
      const d = await hashFile(file);
      return { sha256: d.sha256, md5: d.md5 };
    },
    async compressToFit(file, maxBytes, outDir) {
      if ((await statPath(file)).size <= maxBytes) return file;
      const out = join(outDir, `${basename(file, extname(file))}.fit.mp4`);
      const result = await convertToMp4(file, { out, maxBytes, tools: o.tools });
      return result.output;
    },
    async put(url, headers, file, bytes) {
      const res = await putFile({ url, headers, path: file, size: bytes });
      if (res.status < 200 || res.status >= 300) {
        let code: string | undefined;
        try {
          code = (JSON.parse(res.text) as { code?: string }).code;
        } catch {
          code = undefined;
        }
        throw Object.assign(new Error(`upload PUT answered ${res.status}: ${res.text.slice(0, 300)}`), {
          status: res.status,
          code,
        });
      }
    },
  };
}
