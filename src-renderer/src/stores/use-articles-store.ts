import { LIMITS } from '../../../src-shared/api/limits';
import { create } from 'zustand';
import type { Article, CreateArticleRequest, CreateArticleResponse } from '../../../src-shared/api/articles';
import type { BridgeResult } from '../../../src-shared/ipc';
import { bridge, idle, loading, settle, settleInto, type Loadable } from './bridge';
import { noteService } from './use-service-store';

interface ArticlesState {
  readonly articles: Loadable<readonly Article[]>;
  readonly saving: 'draft' | 'publish' | null;
  load(): Promise<void>;
  create(request: CreateArticleRequest): Promise<BridgeResult<CreateArticleResponse>>;
  remove(id: string): Promise<BridgeResult<true>>;
}

export const useArticlesStore = create<ArticlesState>()((set, get) => ({
  articles: idle(),
  saving: null,
  async load() {
    set({ articles: loading(get().articles) });
    const r = noteService(await settle(() => bridge().articles.list({ limit: LIMITS.pageSizeMax })));
    set({ articles: settleInto(get().articles, r.ok ? { ok: true, value: r.value.articles } : r) });
  },
  async create(request) {
    set({ saving: request.action === 'publish' ? 'publish' : 'draft' });
    const r = await settle(() => bridge().articles.create(request));
    set({ saving: null });
    void get().load();
    return r;
  },
  async remove(id) {
    const r = await settle(() => bridge().articles.delete({ id }));
    void get().load();
    return r.ok ? { ok: true, value: true } : r;
  },
}));
