import { create } from 'zustand';
import { plainName } from '../app/bidi';
import type { Account } from '../../../src-shared/api/accounts';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';
import { noteService } from './use-service-store';

interface AccountsState {
  readonly accounts: Loadable<readonly Account[]>;
  load(): Promise<void>;
  /** Loads once per session unless forced; the composer, posts and analytics all need accounts. */
  ensure(): Promise<void>;
}

/** Newest first; names show any direction override they hold rather than obey it (accounts are never edited here). */
const newestFirst = (list: readonly Account[]): readonly Account[] =>
  [...list]
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))
    .map((a) => ({ ...a, name: plainName(a.name) }));

export const useAccountsStore = create<AccountsState>()((set, get) => ({
  accounts: idle(),
  async load() {
    set({ accounts: loading(get().accounts) });
    const r = noteService(await settle(() => bridge().accounts.list()));
    set({
      accounts: settleInto(get().accounts, r.ok ? { ok: true, value: newestFirst(r.value.accounts) } : r),
    });
  },
  async ensure() {
    const { accounts } = get();
    if (accounts.data || accounts.loading) return;
    await get().load();
  },
}));
