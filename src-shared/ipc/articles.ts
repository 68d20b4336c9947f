import {
  CreateArticleRequest,
  CreateArticleResponse,
  DeleteArticleRequest,
  ListArticlesQuery,
  ListArticlesResponse,
} from '../api/articles';
import { SuccessResponse } from '../api/posts';
import { invoke } from './define';

export const articles = {
  list: invoke(ListArticlesQuery, ListArticlesResponse),
  /** `action: "publish"` delivers inline and returns per-destination `results`. */
  create: invoke(CreateArticleRequest, CreateArticleResponse),
  delete: invoke(DeleteArticleRequest, SuccessResponse),
} as const;
