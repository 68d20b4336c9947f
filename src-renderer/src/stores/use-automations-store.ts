import { create } from 'zustand';
import type {
  CreateAutomationInput,
  UpdateAutomationInput,
} from '../../../src-shared/api/automation-editing';
import type { AutomationView, BridgeResult, RunRecord } from '../../../src-shared/ipc';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';
import { noteService } from './use-service-store';

/** Status changes the screen offers, one bridge channel each. */
export type AutomationStatusChange = 'pause' | 'resume' | 'remove';

interface AutomationsState {
  readonly automations: Loadable<readonly AutomationView[]>;
  /** Whether this connection creates and edits automations here (the sandbox); false until the list loads. */
  readonly canEdit: boolean;
  readonly starting: string | null;
  /** The automation being saved (`new` while creating), or null. */
  readonly saving: string | null;
  load(): Promise<void>;
  runNow(id: string): Promise<BridgeResult<RunRecord>>;
  create(input: CreateAutomationInput): Promise<BridgeResult<AutomationView>>;
  update(input: UpdateAutomationInput): Promise<BridgeResult<AutomationView>>;
  change(id: string, change: AutomationStatusChange): Promise<BridgeResult<AutomationView>>;
}

export const useAutomationsStore = create<AutomationsState>()((set, get) => {
  /** A change, then the list again (it shows the new revision and the next occurrence). */
  const saveWith = async (
    key: string,
    call: () => Promise<BridgeResult<{ automation: AutomationView }>>,
  ): Promise<BridgeResult<AutomationView>> => {
    set({ saving: key });
    const r = await settle(call);
    set({ saving: null });
    void get().load();
    return r.ok ? { ok: true, value: r.value.automation } : r;
  };
  return {
    automations: idle(),
    canEdit: false,
    starting: null,
    saving: null,
    async load() {
      set({ automations: loading(get().automations) });
      const r = noteService(await settle(() => bridge().automations.list()));
      set({
        automations: settleInto(get().automations, r.ok ? { ok: true, value: r.value.automations } : r),
        ...(r.ok ? { canEdit: r.value.can_edit } : {}),
      });
    },
    async runNow(id) {
      set({ starting: id });
      const r = await settle(() => bridge().automations.runNow({ id }));
      set({ starting: null });
      void get().load();
      return r.ok ? { ok: true, value: r.value.run } : r;
    },
    create: (input) => saveWith('new', () => bridge().automations.create(input)),
    update: (input) => saveWith(input.id, () => bridge().automations.update(input)),
    change: (id, change) => saveWith(id, () => bridge().automations[change]({ id })),
  };
});
