import { create } from 'zustand';
import type {
  ActivityEntry,
  AssistantConnection,
  AssistantTest,
  AssistantTool,
  BridgeResult,
  Proposal,
  ProposalOutcome,
} from '../../../src-shared/ipc';
import { bridge, idle, loadInto, loading, settle, settleInto, type Loadable } from './bridge';

interface AssistantState {
  /** The proposals waiting for a person. */
  readonly proposals: Loadable<{ proposals: Proposal[] }>;
  readonly activity: Loadable<{ activity: ActivityEntry[] }>;
  readonly tools: Loadable<{ tools: AssistantTool[] }>;
  readonly connection: Loadable<AssistantConnection>;
  readonly test: Loadable<AssistantTest>;
  /** The proposal a button is acting on. */
  readonly busy: string | null;
  /** How many requests wait (the navigation's count); null before the first answer. */
  readonly waiting: number | null;
  loadProposals(): Promise<void>;
  loadActivity(): Promise<void>;
  loadTools(): Promise<void>;
  loadConnection(): Promise<void>;
  runTest(): Promise<void>;
  decide(id: string, decision: 'approve' | 'reject'): Promise<BridgeResult<ProposalOutcome>>;
  /** Keeps the lists current: the host says when proposals change (a new one, a decision). */
  listen(): () => void;
}

export const useAssistantStore = create<AssistantState>()((set, get) => ({
  proposals: idle(),
  activity: idle(),
  tools: idle(),
  connection: idle(),
  test: idle(),
  busy: null,
  waiting: null,
  async loadProposals() {
    set({ proposals: loading(get().proposals) });
    const r = await settle(() => bridge().assistant.proposals({}));
    set({
      proposals: settleInto(get().proposals, r),
      ...(r.ok ? { waiting: r.value.proposals.length } : {}),
    });
  },
  async loadActivity() {
    await loadInto(set, get, 'activity', () => bridge().assistant.activity({ limit: 200 }));
  },
  async loadTools() {
    await loadInto(set, get, 'tools', () => bridge().assistant.tools({}));
  },
  async loadConnection() {
    await loadInto(set, get, 'connection', () => bridge().assistant.connection({}));
  },
  async runTest() {
    await loadInto(set, get, 'test', () => bridge().assistant.test({}));
  },
  async decide(id, decision) {
    set({ busy: id });
    const r = await settle(() =>
      decision === 'approve' ? bridge().assistant.approve({ id }) : bridge().assistant.reject({ id }),
    );
    set({ busy: null });
    void get().loadProposals();
    void get().loadActivity();
    return r;
  },
  listen() {
    return bridge().assistant.onDidChange(({ waiting }) => {
      set({ waiting });
      void get().loadProposals();
      void get().loadActivity();
    });
  },
}));
