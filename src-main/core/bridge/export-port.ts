import { CALENDAR_STATUSES } from '../../../src-shared/api/delivery-transitions';
import { basename } from 'node:path';
import type { ExportFormat, ExportProgress, ExportWhat } from '../../../src-shared/ipc/exports';
import { isTimeZone } from '../bulk/fields';
import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';
import type { DeliveryIndex } from '../deliveries/delivery-index';
import { ANALYTICS_EXPORT_COLUMNS, analyticsRecords } from '../export/analytics-records';
import { writeExportFile } from '../export/export-file';
import { indexPosts, localZone } from '../export/export-sources';
import { POST_EXPORT_COLUMNS, postRecords } from '../export/post-records';
import { RUN_EXPORT_COLUMNS, runRecord } from '../export/run-records';
import { writeExport, type ExportRecord } from '../export/write-export';
import { BridgeFault, unavailable } from './bridge-fault';
import type { DownloadShelf } from './host-ports';
import type { BridgeApi, ExecutorPort, ExportPort } from './ports';

/** Main's own save dialog (the desktop app): the path the user chose, or null when they cancelled. */
export interface FileSaver {
  save(o: { readonly suggestedName: string; readonly format: ExportFormat }): Promise<string | null>;
}

export interface ExportPortOptions {
  readonly index: Pick<DeliveryIndex, 'postIdsOf' | 'deliveriesOfPosts'>;
  /** The index's scope for the current service. */
  readonly scope: () => string;
  /** Brings the index up to date from the service before posts are exported. */
  readonly refresh: () => Promise<void>;
  /** The current service's client; throws `not_connected` when there is none. */
  readonly api: () => Promise<Pick<BridgeApi, 'analytics'>>;
  readonly executor?: ExecutorPort | undefined;
  /** The desktop's save dialog; without it, `downloads` hands the file to the browser. */
  readonly saver?: FileSaver | undefined;
  readonly downloads?: DownloadShelf | undefined;
  readonly progress: (p: ExportProgress) => void;
  readonly now?: () => Date;
  readonly log?: Logger;
}

/** Progress is told at most this often: enough for a bar, not a flood of events. */
const PROGRESS_MS = 150;

interface Plan {
  readonly what: string;
  readonly columns: readonly string[];
  readonly records: () => AsyncIterable<ExportRecord> | Iterable<ExportRecord>;
}

/** The bridge's `exports:run`: one screen's data, streamed to the file the user chose (or to a download). */
export function createExportPort(o: ExportPortOptions): ExportPort {
  const log = o.log ?? silentLogger;
  const now = o.now ?? (() => new Date());

  async function plan(what: Readonly<ExportWhat>, format: ExportFormat, zone: string): Promise<Plan> {
    switch (what.kind) {
      case 'posts':
      case 'calendar': {
        await o.api(); // not connected: said now, not after a dialog
        await o.refresh();
        const source = indexPosts(
          o.index,
          what.kind === 'posts'
            ? { scope: o.scope(), status: what.status, platform: what.platform }
            : {
                scope: o.scope(),
                from: what.start,
                to: what.end,
                platform: what.platform,
                status: what.statuses ?? CALENDAR_STATUSES,
              },
        );
        return {
          what: what.kind === 'posts' ? 'posts' : 'calendar',
          columns: POST_EXPORT_COLUMNS,
          records: () => postRecords(source, { zone, format }),
        };
      }
      case 'analytics': {
        const res = await (await o.api()).analytics(what.query);
        return { what: 'analytics', columns: ANALYTICS_EXPORT_COLUMNS, records: () => analyticsRecords(res) };
      }
      case 'runs': {
        if (!o.executor) throw unavailable('Run history');
        const runs = await o.executor.listRuns({ automation_id: what.automation_id, limit: 100_000 });
        return {
          what: 'runs',
          columns: RUN_EXPORT_COLUMNS,
          records: function* () {
            for (const r of runs) yield runRecord(r, zone);
          },
        };
      }
    }
  }

  return {
    async run(req) {
      const zone = req.timezone && isTimeZone(req.timezone) ? req.timezone : localZone();
      const p = await plan(req.what, req.format, zone);
      const name = `postdesk-${p.what}-${now().toISOString().slice(0, 10)}.${req.format}`;
      let last = 0;
      const onRecord = (records: number) => {
        const t = Date.now();
        if (t - last < PROGRESS_MS) return;
        last = t;
        o.progress({ export_id: req.export_id, records });
      };
      const write = async (file: string): Promise<number> => {
        try {
          const records = await writeExportFile(file, (out) =>
            writeExport(p.records(), { format: req.format, columns: p.columns, out, onRecord }),
          );
          o.progress({ export_id: req.export_id, records });
          return records;
        } catch (e) {
          if (e instanceof BridgeFault) throw e;
          log.warn('an export could not be written', { error: errorText(e) });
          throw new BridgeFault(
            'unavailable',
            'The export could not be written there. Check that the folder exists, that you may write to it and that the disk has room, then try again.',
          );
        }
      };
      if (o.saver) {
        const file = await o.saver.save({ suggestedName: name, format: req.format });
        if (!file) return { outcome: 'cancelled' };
        const records = await write(file);
        return { outcome: 'saved', name: basename(file), records };
      }
      if (!o.downloads) throw unavailable('Exporting');
      const d = await o.downloads.reserve(name);
      try {
        const records = await write(d.file);
        return { outcome: 'download', name, url: d.url, records };
      } catch (e) {
        await o.downloads.discard(d.id);
        throw e;
      }
    },
  };
}
