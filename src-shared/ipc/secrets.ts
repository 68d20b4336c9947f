import { z } from 'zod';
import { invoke } from './define';
import { NoInput } from './common';

/**
 * Write-only: the API key goes in and never comes out. No channel returns a secret; `has` answers
 * whether one is stored.
 */
export const secrets = {
  set: invoke(z.object({ api_key: z.string().trim().min(1).max(1000) }), z.object({ stored: z.boolean() })),
  has: invoke(NoInput, z.boolean()),
  clear: invoke(NoInput, z.object({ cleared: z.boolean() })),
} as const;
