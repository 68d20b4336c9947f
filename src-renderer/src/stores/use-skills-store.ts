import { create } from 'zustand';
import type { GetSkillResponse, SkillSummary } from '../../../src-shared/api/skills';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';
import { noteService } from './use-service-store';

interface SkillsState {
  readonly skills: Loadable<readonly SkillSummary[]>;
  readonly selected: { readonly id: string; readonly version: string | null } | null;
  readonly detail: Loadable<GetSkillResponse>;
  load(): Promise<void>;
  select(id: string, version?: string): Promise<void>;
}

export const useSkillsStore = create<SkillsState>()((set, get) => ({
  skills: idle(),
  selected: null,
  detail: idle(),
  async load() {
    set({ skills: loading(get().skills) });
    const r = noteService(await settle(() => bridge().skills.list()));
    set({ skills: settleInto(get().skills, r.ok ? { ok: true, value: r.value.skills } : r) });
  },
  async select(id, version) {
    set({ selected: { id, version: version ?? null }, detail: loading(get().detail) });
    const r = noteService(await settle(() => bridge().skills.get({ id, version })));
    const sel = get().selected;
    if (!sel || sel.id !== id || sel.version !== (version ?? null)) return;
    set({ detail: settleInto(get().detail, r) });
  },
}));
