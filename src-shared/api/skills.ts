import { z } from 'zod';

export const SkillSummary = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  latest_version: z.string(),
});
export type SkillSummary = z.infer<typeof SkillSummary>;
export const ListSkillsResponse = z.looseObject({ skills: z.array(SkillSummary) });
export type ListSkillsResponse = z.infer<typeof ListSkillsResponse>;

export const Skill = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.string(),
  markdown: z.string(),
});
export type Skill = z.infer<typeof Skill>;
export const GetSkillQuery = z.object({
  version: z.string().optional(),
  format: z.literal('markdown').optional(),
});
export type GetSkillQuery = z.infer<typeof GetSkillQuery>;
export const GetSkillResponse = z.looseObject({ skill: Skill, versions: z.array(z.string()) });
export type GetSkillResponse = z.infer<typeof GetSkillResponse>;
