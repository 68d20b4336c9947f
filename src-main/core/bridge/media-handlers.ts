import { randomUUID } from 'node:crypto';
import { basename, extname, join } from 'node:path';
import { LIMITS } from '../../../src-shared/api/limits';
import type { MediaCheck } from '../../../src-shared/ipc/media';
import { ensurePrivateDir } from '../files';
import { checkFile } from '../media/check';
import { CannotConvertError, convertToMp4 } from '../media/convert';
import { ToolFailedError, ToolNotFoundError, defaultTools, reportTools } from '../media/tools';
import { BridgeFault, UNEXPECTED, forPeople, unavailable } from './bridge-fault';
import type { BridgeDeps } from './handler-deps';
import type { Handlers } from './handler-types';
import type { BridgeCore } from './ports';

/**
 * `files` and `media`: what the person chose becomes a grant, then a registered file that is checked, converted
 * (ffmpeg) or uploaded; progress goes to the pages as events.
 */
export function createMediaHandlers(
  core: Pick<BridgeCore, 'uploads'>,
  deps: Pick<BridgeDeps, 'events' | 'grants' | 'media' | 'picker' | 'tools' | 'convertDir'>,
): Pick<Handlers, 'files' | 'media'> {
  const { events } = deps;
  const need = <T>(port: T | undefined, what: string): T => {
    if (!port) throw unavailable(what);
    return port;
  };
  const registered = (id: string) => {
    const f = deps.media.get(id);
    if (!f) throw new BridgeFault('not_found', 'That file is no longer added; add it again.');
    return f;
  };
  return {
    files: {
      pick: async (input) => {
        const chosen = await need(deps.picker, 'Choosing files in a dialog').pick(input);
        return deps.grants.mint(
          chosen.map((path) => ({ path })),
          'dialog',
        );
      },
    },
    media: {
      add: async ({ grants }) => {
        const granted = [];
        for (const id of grants) granted.push(await deps.grants.use(id));
        return deps.media.addFiles(granted.map((g) => ({ path: g.path, name: g.name })));
      },
      inspect: async ({ id }) => {
        const f = registered(id);
        const check = await checkFile(f.realPath, { purpose: 'upload', tools: deps.tools });
        const checks: MediaCheck[] = check.problems.map((p) => ({
          level: p.severity,
          code: p.rule,
          message: forPeople(p.message),
          ...(p.fix ? { fix: p.fix.kind } : {}),
        }));
        const v = check.probe?.video ?? null;
        return {
          id,
          ok: check.ok,
          content_type: check.contentType,
          checks,
          width: v?.displayWidth ?? null,
          height: v?.displayHeight ?? null,
          duration_seconds: check.probe?.durationSec ?? null,
        };
      },
      upload: async ({ id }) => {
        const f = registered(id);
        if (!f.contentType) {
          throw new BridgeFault(
            'invalid_input',
            `${f.name} cannot be uploaded as it is: only JPEG, PNG or WebP images and MP4 video are accepted.`,
          );
        }
        const uploads = core.uploads;
        try {
          const done = await uploads.upload(
            { path: f.realPath, contentType: f.contentType, size: f.size },
            {
              hash: (bytes_done, bytes_total) =>
                events.emit('media:didHashProgress', { id, bytes_done, bytes_total }),
              upload: (phase, bytes_sent, bytes_total) =>
                events.emit('media:didUploadProgress', { id, phase, bytes_sent, bytes_total }),
            },
          );
          events.emit('media:didUploadProgress', {
            id,
            phase: 'done',
            bytes_sent: f.size,
            bytes_total: f.size,
          });
          return { id, ...done };
        } catch (e) {
          events.emit('media:didUploadProgress', { id, phase: 'failed', bytes_sent: 0, bytes_total: f.size });
          throw e;
        }
      },
      remove: async ({ id }) => ({ removed: deps.media.remove(id) }),
      tools: async () => reportTools(deps.tools ?? defaultTools()),
      convert: async ({ id }) => {
        const f = registered(id);
        const dir = join(deps.convertDir, randomUUID());
        await ensurePrivateDir(dir);
        const name = `${basename(f.name, extname(f.name)) || 'video'}.mp4`;
        try {
          const done = await convertToMp4(f.realPath, {
            out: join(dir, name),
            // An MP4 that is only too large is compressed to fit; anything else becomes an MP4 as it is.
            ...(f.contentType === 'video/mp4' ? { maxBytes: LIMITS.mp4UploadBytes } : {}),
            tools: deps.tools,
            onProgress: (p) => events.emit('media:didConvertProgress', { id, percent: p.percent }),
          });
          const added = await deps.media.addFiles([{ path: done.output, name }]);
          const file = added.files[0];
          if (!file) throw new BridgeFault('internal', UNEXPECTED);
          return file;
        } catch (e) {
          if (e instanceof CannotConvertError)
            throw new BridgeFault('invalid_input', `${f.name}: ${e.message}`);
          if (e instanceof ToolNotFoundError)
            throw new BridgeFault(
              'unavailable',
              'Converting needs ffmpeg, which is not installed here. Install it, or choose the program in Settings, under Media tools.',
            );
          if (e instanceof ToolFailedError)
            throw new BridgeFault(
              'invalid_input',
              `${f.name} could not be converted: ffmpeg cannot read it.`,
            );
          throw e;
        }
      },
    },
  };
}
