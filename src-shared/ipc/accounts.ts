import { ListAccountsResponse } from '../api/accounts';
import { invoke } from './define';
import { NoInput } from './common';

export const accounts = {
  /** Newest first. */
  list: invoke(NoInput, ListAccountsResponse),
} as const;
