import { z } from 'zod';
import { GetSkillResponse, ListSkillsResponse } from '../api/skills';
import { invoke } from './define';
import { NoInput } from './common';

export const skills = {
  list: invoke(NoInput, ListSkillsResponse),
  get: invoke(z.object({ id: z.string().min(1), version: z.string().optional() }), GetSkillResponse),
} as const;
