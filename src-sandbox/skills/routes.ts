import type { FastifyInstance } from 'fastify';
import { GetSkillQuery, type GetSkillResponse, type SkillSummary } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { stmt } from '../db';
import { notFound } from '../errors';
import { serve } from '../operation-route';
import { parse } from '../validate';

interface SkillRow {
  id: string;
  name: string;
  description: string;
}
interface VersionRow {
  version: string;
  markdown: string;
}

/** Versions in fixture order; the last one listed is the latest. */
function versionsOf(ctx: SandboxContext, id: string): VersionRow[] {
  return stmt(ctx.db, 'SELECT version, markdown FROM skill_versions WHERE skill_id = ? ORDER BY seq').all(
    id,
  ) as VersionRow[];
}

export function listSkills(ctx: SandboxContext): SkillSummary[] {
  const rows = stmt(ctx.db, 'SELECT id, name, description FROM skills ORDER BY seq').all() as SkillRow[];
  return rows.map((r) => {
    const versions = versionsOf(ctx, r.id);
    return { ...r, latest_version: versions.at(-1)?.version ?? '', versions: versions.map((v) => v.version) };
  });
}

export function getSkill(ctx: SandboxContext, id: string, version?: string): GetSkillResponse {
  const row = stmt(ctx.db, 'SELECT id, name, description FROM skills WHERE id = ?').get(id) as
    SkillRow | undefined;
  if (!row) throw notFound('skill');
  const versions = versionsOf(ctx, id);
  const chosen = version === undefined ? versions.at(-1) : versions.find((v) => v.version === version);
  if (!chosen) throw notFound(`version ${version ?? ''} of skill ${id}`);
  return {
    skill: { ...row, version: chosen.version, markdown: chosen.markdown, latest: chosen === versions.at(-1) },
    versions: versions.map((v) => v.version),
  };
}

/** Public: no authentication. `format=markdown` answers the skill's Markdown as a download. */
export function registerSkillRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  serve(app, ctx, 'listSkills', () => ({ skills: listSkills(ctx) }));
  serve(app, ctx, 'getSkill', (req, _caller, reply) => {
    const q = parse(GetSkillQuery, req.query);
    const found = getSkill(ctx, req.params.id, q.version);
    if (q.format === 'markdown') {
      const file = `${found.skill.id}-${found.skill.version}.md`.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .header('content-type', 'text/markdown; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file}"`)
        .send(found.skill.markdown);
    }
    return found;
  });
}
