import { create } from 'zustand';
import type { BridgeError, ExportFormat, ExportResult, ExportWhat } from '../../../src-shared/ipc';
import { bridge, settle } from './bridge';
import { noteService } from './use-service-store';
import { localZone } from '../app/format';

/** One export at a time per screen's kind: what runs, how far it is, how the last one ended. */
export interface ExportRun {
  readonly id: string;
  readonly format: ExportFormat;
  readonly records: number;
}

interface ExportState {
  /** By the kind of what is exported (`posts`, `calendar`, `analytics`, `runs`). */
  readonly running: Readonly<Partial<Record<ExportWhat['kind'], ExportRun>>>;
  readonly errors: Readonly<Partial<Record<ExportWhat['kind'], BridgeError>>>;
  /** Runs the export; the answer says where it went (or that it is a download for the page to hand on). */
  run(what: ExportWhat, format: ExportFormat): Promise<ExportResult | null>;
  dismiss(kind: ExportWhat['kind']): void;
  listen(): () => void;
}

let counter = 0;

export const useExportStore = create<ExportState>()((set, get) => ({
  running: {},
  errors: {},
  async run(what, format) {
    if (get().running[what.kind]) return null;
    const id = `export-${Date.now().toString(36)}-${(counter += 1)}`;
    set({
      running: { ...get().running, [what.kind]: { id, format, records: 0 } },
      errors: { ...get().errors, [what.kind]: undefined },
    });
    const r = noteService(
      await settle(() =>
        bridge().exports.run({
          what,
          format,
          export_id: id,
          timezone: localZone(),
        }),
      ),
    );
    set({
      running: { ...get().running, [what.kind]: undefined },
      ...(r.ok ? {} : { errors: { ...get().errors, [what.kind]: r.error } }),
    });
    return r.ok ? r.value : null;
  },
  dismiss(kind) {
    set({ errors: { ...get().errors, [kind]: undefined } });
  },
  listen() {
    return bridge().exports.onDidProgress(({ export_id, records }) => {
      const running = { ...get().running };
      for (const [kind, run] of Object.entries(running) as [ExportWhat['kind'], ExportRun][]) {
        if (run.id === export_id) running[kind] = { ...run, records };
      }
      set({ running });
    });
  },
}));
