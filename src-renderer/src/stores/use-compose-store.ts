import { create } from 'zustand';
import type {
  BridgeError,
  ComposeDraft,
  ComposeDraftContent,
  ComposeDraftSummary,
  ComposeWhen,
  LibraryItem,
} from '../../../src-shared/ipc';
import { toLocalInput } from '../app/format';
import { bridge, settle } from './bridge';
import { idle, loading, settleInto, type Loadable } from './loadable';
import { useMediaStore } from './use-media-store';

/** How long typing may pause before the post is kept: short enough that a crash loses a word at most. */
export const SAVE_DELAY_MS = 400;

const inAnHour = (): string => {
  const d = new Date(Date.now() + 60 * 60 * 1000);
  d.setMinutes(0, 0, 0);
  return toLocalInput(d);
};

type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

interface ComposeState {
  /** False until the current draft of this connection was asked for. */
  readonly loaded: boolean;
  /** The kept draft this post is, or null while nothing of it was kept yet. */
  readonly draftId: string | null;
  readonly caption: string;
  readonly accountIds: readonly string[];
  readonly when: ComposeWhen;
  readonly localAt: string;
  readonly save: SaveState;
  readonly saveError: Readonly<BridgeError> | null;
  readonly drafts: Loadable<readonly ComposeDraftSummary[]>;
  readonly library: Loadable<readonly LibraryItem[]>;
  /** Restores the post this connection was writing (once per connection; later calls do nothing). */
  load(): Promise<void>;
  setCaption(caption: string): void;
  toggleAccount(id: string): void;
  setWhen(when: ComposeWhen): void;
  setLocalAt(localAt: string): void;
  /** The post's media changed (added, uploaded, removed): keep it. */
  mediaChanged(): void;
  /** Keeps now what is waiting for the pause in typing (leaving the screen, closing the page). */
  flush(): Promise<void>;
  /** "New post": keeps the current one as a draft and starts an empty one. */
  startNew(): Promise<void>;
  /** Continues a kept draft; the one being written stays kept. */
  open(id: string): Promise<void>;
  discard(id: string): Promise<void>;
  /** The post went out (or is held to be sent): its draft is forgotten and the composer is empty again. */
  sent(): Promise<void>;
  loadDrafts(): Promise<void>;
  loadLibrary(): Promise<void>;
  /** Another connection: forget this one's post without keeping anything more of it. */
  forget(): void;
}

const FRESH = () => ({
  draftId: null,
  caption: '',
  accountIds: [] as readonly string[],
  when: 'now' as ComposeWhen,
  localAt: inAnHour(),
  save: 'idle' as SaveState,
  saveError: null,
});

let timer: ReturnType<typeof setTimeout> | null = null;
/** Bumped by anything that replaces the post, so an answer about the one before cannot overwrite it. */
let generation = 0;
/** One save at a time, so a new draft is created once, not once per keystroke in flight. */
let saving: Promise<void> = Promise.resolve();
/** The last list asked for: an older answer arriving later is not shown. */
let draftsAsked = 0;

export const useComposeStore = create<ComposeState>()((set, get) => {
  const contentOf = (): ComposeDraftContent => {
    const s = get();
    const media = useMediaStore.getState().items.flatMap((it) => (it.uploaded ? [it.uploaded.asset_id] : []));
    return { caption: s.caption, account_ids: [...s.accountIds], media, when: s.when, local_at: s.localAt };
  };
  const isEmpty = (c: ComposeDraftContent) =>
    c.caption.trim() === '' && c.account_ids.length === 0 && c.media.length === 0;

  const saveNow = (): Promise<void> => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    saving = saving.then(async () => {
      const gen = generation;
      const content = contentOf();
      const id = get().draftId;
      if (isEmpty(content)) {
        // Nothing worth keeping: an emptied post leaves no draft behind.
        if (id !== null) {
          await settle(() => bridge().compose.discard({ id }));
          if (gen === generation) set({ draftId: null, save: 'idle' });
        }
        return;
      }
      set({ save: 'saving' });
      const r = await settle(() => bridge().compose.save({ id, content }));
      if (gen !== generation) return;
      if (r.ok) set({ draftId: r.value.draft.id, save: 'saved', saveError: null });
      else set({ save: 'failed', saveError: r.error });
    });
    return saving;
  };
  const later = () => {
    if (!get().loaded) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => void saveNow(), SAVE_DELAY_MS);
  };
  const restore = (d: ComposeDraft | null) => {
    set({
      loaded: true,
      ...FRESH(),
      ...(d
        ? {
            draftId: d.id,
            caption: d.caption,
            accountIds: d.account_ids,
            when: d.when,
            localAt: d.local_at || inAnHour(),
            save: 'saved' as const,
          }
        : {}),
    });
    useMediaStore.getState().attach(d?.media ?? [], true);
  };
  /** Finishes what is pending on the current post before another takes its place. */
  const leave = async () => {
    if (timer !== null) await saveNow();
    await saving;
    generation++;
  };

  return {
    loaded: false,
    ...FRESH(),
    drafts: idle(),
    library: idle(),
    async load() {
      if (get().loaded) return;
      const gen = generation;
      const r = await settle(() => bridge().compose.current());
      if (gen !== generation || get().loaded) return;
      if (r.ok) restore(r.value.draft);
      else set({ loaded: true, save: 'failed', saveError: r.error });
    },
    setCaption(caption) {
      set({ caption });
      later();
    },
    toggleAccount(id) {
      const ids = get().accountIds;
      set({ accountIds: ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id] });
      later();
    },
    setWhen(when) {
      set({ when });
      later();
    },
    setLocalAt(localAt) {
      set({ localAt });
      later();
    },
    mediaChanged() {
      later();
    },
    flush: async () => {
      if (timer !== null) await saveNow();
      await saving;
    },
    async startNew() {
      await leave();
      await settle(() => bridge().compose.startNew());
      generation++; // a restore asked for before "New post" must not bring the old one back
      restore(null);
      void get().loadDrafts();
    },
    async open(id) {
      await leave();
      const r = await settle(() => bridge().compose.open({ id }));
      if (!r.ok) {
        set({ drafts: { ...get().drafts, error: r.error } });
        return void get().loadDrafts();
      }
      restore(r.value.draft);
      void get().loadDrafts();
    },
    async discard(id) {
      if (id === get().draftId) {
        await leave();
        restore(null);
      }
      await settle(() => bridge().compose.discard({ id }));
      await get().loadDrafts();
    },
    async sent() {
      const id = get().draftId;
      await leave();
      if (id !== null) await settle(() => bridge().compose.discard({ id }));
      await settle(() => bridge().compose.startNew());
      restore(null);
    },
    async loadDrafts() {
      const asked = ++draftsAsked;
      set({ drafts: loading(get().drafts) });
      const r = await settle(() => bridge().compose.drafts());
      if (asked !== draftsAsked) return;
      set({ drafts: settleInto(get().drafts, r.ok ? { ok: true, value: r.value.drafts } : r) });
    },
    async loadLibrary() {
      set({ library: loading(get().library) });
      const r = await settle(() => bridge().compose.library());
      set({ library: settleInto(get().library, r.ok ? { ok: true, value: r.value.items } : r) });
    },
    forget() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      generation++;
      set({ loaded: false, ...FRESH(), drafts: idle(), library: idle() });
    },
  };
});
