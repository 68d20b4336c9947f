import type { Command } from 'commander';
import { SOURCE_WORDS, reportTools, type ToolReport } from '../../core/media/tools';
import type { CliDeps } from '../context';
import { savedSettings, toolOptions, toolsFrom } from './upload';

/**
 * `postdesk doctor`: what this machine gives Postdesk to work with. For now the media tools: which ffmpeg and
 * ffprobe run (path, where they come from, version), and a warning when only an old build is there (the
 * bundled one is a 2018 snapshot). Settings' Media tools card shows the same report.
 */
export function registerDoctorCommand(program: Command, deps: CliDeps): void {
  const saved = () => savedSettings(deps);
  toolOptions(
    program
      .command('doctor')
      .description('which ffmpeg and ffprobe are used (path, source, version), and what to fix'),
  ).action((opts: { ffmpeg?: string; ffprobe?: string }, cmd: Command) => {
    const out = deps.output(cmd);
    const report = reportTools(toolsFrom(opts, saved));
    const notes = [report.ffmpeg, report.ffprobe].flatMap((t) => (t.note ? [`${t.name}: ${t.note}`] : []));
    out.result({ media_tools: report, warnings: notes }, () => {
      const line = (t: ToolReport): string =>
        t.path
          ? `${t.path} (${t.source ? SOURCE_WORDS[t.source] : ''}), version ${t.version ?? 'unknown'}`
          : 'not found';
      out.fields([
        ['ffmpeg', line(report.ffmpeg)],
        ['ffprobe', line(report.ffprobe)],
      ]);
      for (const n of notes) out.line(out.colors.yellow(`warning: ${n}`));
    });
  });
}
