import type { Command } from 'commander';
import type { CliDeps } from '../context';
import { truncate } from '../output';
import { commandGroup, defaultCommand } from '../command-group';

export function registerSkillsCommand(program: Command, deps: CliDeps): void {
  const skills = commandGroup(program, 'skills', 'public, versioned instruction skills (no key needed)');
  defaultCommand(skills, 'list', 'every skill with its latest version').action(
    async (_opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd, { replay: false });
      const { skills: list } = await out.spin('listing skills', () => core.client.listSkills());
      out.result({ skills: list }, () =>
        out.table(
          ['id', 'latest', 'name', 'description'],
          list.map((s) => [s.id, s.latest_version, s.name, truncate(s.description, 60)]),
        ),
      );
    },
  );
  skills
    .command('show <id>')
    .description('one skill: its versions and text')
    .option('--version <version>', 'a specific version (default: latest)')
    .option('--markdown', 'print the skill as its Markdown download')
    .action(async (id: string, opts: { version?: string; markdown?: boolean }, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd, { replay: false });
      if (opts.markdown) {
        const md = await out.spin('fetching', () => core.client.getSkillMarkdown(id, opts.version));
        out.result({ id, version: opts.version ?? null, markdown: md }, () =>
          out.line(md.endsWith('\n') ? md.slice(0, -1) : md),
        );
        return;
      }
      const res = await out.spin('fetching', () =>
        core.client.getSkill(id, opts.version ? { version: opts.version } : undefined),
      );
      out.result(res, () => {
        out.fields([
          ['id', res.skill.id],
          ['name', res.skill.name],
          ['version', res.skill.version],
          ['versions', res.versions.join(', ')],
          ['description', res.skill.description],
        ]);
        out.line();
        out.line(res.skill.markdown);
      });
    });
}
