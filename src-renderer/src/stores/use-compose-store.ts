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
/** Bumped each time another post takes the composer's place; each post is known by its generation. */
let generation = 0;
/** The kept draft of each generation's post (null until its first save answers). */
const keptIds = new Map<number, string | null>();
/**
 * Every call about drafts goes through this one chain, in order: a new draft is created once (not once per
 * keystroke in flight), and "New post" reaches main after the old post's last save, never before.
 */
let chain: Promise<unknown> = Promise.resolve();
const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
  const next = chain.then(work, work);
  chain = next.catch(() => undefined);
  return next;
};
/** The last list asked for: an older answer arriving later is not shown. */
let draftsAsked = 0;
/** What was last kept (or restored): the same content again is not kept again, so opening a draft does not touch it. */
let lastKept = '';

export const useComposeStore = create<ComposeState>()((set, get) => {
  const contentOf = (): ComposeDraftContent => {
    const s = get();
    const media = useMediaStore.getState().items.flatMap((it) => (it.uploaded ? [it.uploaded.asset_id] : []));
    return { caption: s.caption, account_ids: [...s.accountIds], media, when: s.when, local_at: s.localAt };
  };
  const isEmpty = (c: ComposeDraftContent) =>
    c.caption.trim() === '' && c.account_ids.length === 0 && c.media.length === 0;
  const stopTimer = (): boolean => {
    const pending = timer !== null;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    return pending;
  };

  /** Keeps the post as it is now (read at once, sent in order). */
  const saveNow = (): Promise<void> => {
    stopTimer();
    const gen = generation;
    const content = contentOf();
    const text = JSON.stringify(content);
    return inOrder(async () => {
      const id = keptIds.get(gen) ?? null;
      const current = gen === generation;
      if (isEmpty(content)) {
        // Nothing worth keeping: an emptied post leaves no draft behind.
        if (id !== null) {
          await settle(() => bridge().compose.discard({ id }));
          keptIds.set(gen, null);
          if (gen === generation) set({ draftId: null, save: 'idle' });
        }
        return;
      }
      if (current && id !== null && text === lastKept) return;
      if (current) set({ save: 'saving' });
      const r = await settle(() => bridge().compose.save({ id, content }));
      if (r.ok) keptIds.set(gen, r.value.draft.id);
      if (gen !== generation) return;
      if (r.ok) {
        lastKept = text;
        set({ draftId: r.value.draft.id, save: 'saved', saveError: null });
      } else set({ save: 'failed', saveError: r.error });
    });
  };
  const later = () => {
    if (!get().loaded) return;
    stopTimer();
    timer = setTimeout(() => void saveNow(), SAVE_DELAY_MS);
  };
  /** Another post takes the composer's place, at once: what is typed from now on belongs to it. */
  const replace = (d: ComposeDraft | null) => {
    // What the outgoing post waited to keep is kept first, under its own generation.
    if (stopTimer()) void saveNow();
    generation++;
    keptIds.set(generation, d?.id ?? null);
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
    lastKept = d ? JSON.stringify(contentOf()) : '';
  };
  return {
    loaded: false,
    ...FRESH(),
    drafts: idle(),
    library: idle(),
    async load() {
      if (get().loaded) return;
      const gen = generation;
      const r = await inOrder(() => settle(() => bridge().compose.current()));
      if (gen !== generation || get().loaded) return;
      if (r.ok && r.value.draft && !isEmpty(contentOf())) {
        // Typed (or attached) before the post this connection was writing arrived: neither is lost. That post
        // is kept among the local drafts, as "New post" keeps it, and what was typed becomes the post.
        set({ loaded: true });
        await inOrder(() => settle(() => bridge().compose.startNew()));
        void saveNow();
        return void get().loadDrafts();
      }
      if (r.ok) replace(r.value.draft);
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
    async flush() {
      if (stopTimer()) await saveNow();
      await chain;
    },
    async startNew() {
      replace(null);
      await inOrder(() => settle(() => bridge().compose.startNew()));
      void get().loadDrafts();
    },
    async open(id) {
      if (stopTimer()) void saveNow();
      const gen = generation;
      const r = await inOrder(() => settle(() => bridge().compose.open({ id })));
      if (!r.ok) {
        set({ drafts: { ...get().drafts, error: r.error } });
        return void get().loadDrafts();
      }
      // Unless another post took the composer's place meanwhile ("New post" while it opened).
      if (gen === generation) replace(r.value.draft);
      void get().loadDrafts();
    },
    async discard(id) {
      if (id === get().draftId) {
        stopTimer();
        replace(null);
      }
      await inOrder(() => settle(() => bridge().compose.discard({ id })));
      await get().loadDrafts();
    },
    async sent() {
      stopTimer();
      const gen = generation;
      replace(null);
      await inOrder(async () => {
        const id = keptIds.get(gen) ?? null;
        if (id !== null) await settle(() => bridge().compose.discard({ id }));
        await settle(() => bridge().compose.startNew());
      });
    },
    async loadDrafts() {
      const asked = ++draftsAsked;
      set({ drafts: loading(get().drafts) });
      const r = await inOrder(() => settle(() => bridge().compose.drafts()));
      if (asked !== draftsAsked) return;
      set({ drafts: settleInto(get().drafts, r.ok ? { ok: true, value: r.value.drafts } : r) });
    },
    async loadLibrary() {
      set({ library: loading(get().library) });
      const r = await settle(() => bridge().compose.library());
      set({ library: settleInto(get().library, r.ok ? { ok: true, value: r.value.items } : r) });
    },
    forget() {
      stopTimer();
      generation++;
      keptIds.clear();
      set({ loaded: false, ...FRESH(), drafts: idle(), library: idle() });
    },
  };
});
