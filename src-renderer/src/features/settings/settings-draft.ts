import type { AgentCommand, SettingsPatch, SettingsView } from '../../../../src-shared/ipc';
import type { MissedRunPolicy } from '../../../../src-shared/settings';

/** The form's text state; parsed into a patch of only what changed. */
export interface Draft {
  base_url: string;
  alias_url: string;
  proxy_url: string;
  executor_name: string;
  concurrency: string;
  missed_run_policy: MissedRunPolicy;
  grace_window_minutes: string;
  agent_commands: { agent_type: string; command: string; args: string }[];
  ffmpeg_path: string;
  ffprobe_path: string;
}

export const toDraft = (s: SettingsView): Draft => ({
  base_url: s.base_url ?? '',
  alias_url: s.alias_url ?? '',
  proxy_url: s.proxy_url ?? '',
  executor_name: s.executor_name ?? '',
  concurrency: String(s.concurrency),
  missed_run_policy: s.missed_run_policy,
  grace_window_minutes: String(s.grace_window_minutes),
  agent_commands: s.agent_commands.map((c) => ({
    agent_type: c.agent_type,
    command: c.command,
    args: c.args.join('\n'),
  })),
  ffmpeg_path: s.ffmpeg_path ?? '',
  ffprobe_path: s.ffprobe_path ?? '',
});

const commandsOf = (d: Draft): AgentCommand[] =>
  d.agent_commands.map((c) => ({
    agent_type: c.agent_type.trim(),
    command: c.command.trim(),
    args: c.args
      .split('\n')
      .map((a) => a.trim())
      .filter(Boolean),
  }));

export function patchOf(d: Draft, s: SettingsView): SettingsPatch {
  const p: Record<string, unknown> = {};
  if ((d.base_url.trim() || null) !== s.base_url) p.base_url = d.base_url.trim() || null;
  if ((d.alias_url.trim() || null) !== s.alias_url) p.alias_url = d.alias_url.trim() || null;
  if ((d.proxy_url.trim() || null) !== s.proxy_url) p.proxy_url = d.proxy_url.trim() || null;
  if ((d.executor_name.trim() || null) !== s.executor_name) p.executor_name = d.executor_name.trim() || null;
  if (Number(d.concurrency) !== s.concurrency) p.concurrency = Number(d.concurrency);
  if (d.missed_run_policy !== s.missed_run_policy) p.missed_run_policy = d.missed_run_policy;
  if (Number(d.grace_window_minutes) !== s.grace_window_minutes)
    p.grace_window_minutes = Number(d.grace_window_minutes);
  const commands = commandsOf(d);
  if (JSON.stringify(commands) !== JSON.stringify(s.agent_commands)) p.agent_commands = commands;
  if ((d.ffmpeg_path.trim() || null) !== s.ffmpeg_path) p.ffmpeg_path = d.ffmpeg_path.trim() || null;
  if ((d.ffprobe_path.trim() || null) !== s.ffprobe_path) p.ffprobe_path = d.ffprobe_path.trim() || null;
  return p as SettingsPatch;
}
