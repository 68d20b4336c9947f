import type { SettingsPatch as ViewPatch, SettingsView } from '../../../src-shared/ipc/settings';
import type { Settings, SettingsPatch } from '../config/settings';

/** The core's settings as the bridge shows them (snake_case, agent commands as a list), with the host's log file. */
export function toSettingsView(s: Readonly<Settings>, logFile: string | null = null): SettingsView {
  return {
    base_url: s.baseUrl,
    alias_url: s.aliasUrl,
    proxy_url: s.proxyUrl,
    executor_name: s.executorName,
    agent_commands: Object.entries(s.agentCommands).map(([agent_type, c]) => ({
      agent_type,
      command: c.command,
      args: [...c.args],
    })),
    concurrency: s.concurrency,
    missed_run_policy: s.missedRunPolicy,
    start_at_login: s.startAtLogin,
    update_channel: s.updateChannel,
    ffmpeg_path: s.ffmpegPath,
    ffprobe_path: s.ffprobePath,
    automation_folders: Object.entries(s.automationFolders).map(([automation_id, folder]) => ({
      automation_id,
      folder,
    })),
    log_file: logFile,
  };
}

/** A bridge patch as a core patch; only the fields present are changed. */
export function toSettingsPatch(p: Readonly<ViewPatch>): SettingsPatch {
  const out: SettingsPatch = {};
  if (p.base_url !== undefined) out.baseUrl = p.base_url;
  if (p.alias_url !== undefined) out.aliasUrl = p.alias_url;
  if (p.proxy_url !== undefined) out.proxyUrl = p.proxy_url;
  if (p.executor_name !== undefined) out.executorName = p.executor_name;
  if (p.agent_commands !== undefined) {
    out.agentCommands = Object.fromEntries(
      p.agent_commands.map((c) => [c.agent_type, { command: c.command, args: [...c.args] }]),
    );
  }
  if (p.concurrency !== undefined) out.concurrency = p.concurrency;
  if (p.missed_run_policy !== undefined) out.missedRunPolicy = p.missed_run_policy;
  if (p.start_at_login !== undefined) out.startAtLogin = p.start_at_login;
  if (p.update_channel !== undefined) out.updateChannel = p.update_channel;
  if (p.ffmpeg_path !== undefined) out.ffmpegPath = p.ffmpeg_path;
  if (p.ffprobe_path !== undefined) out.ffprobePath = p.ffprobe_path;
  if (p.automation_folders !== undefined) {
    out.automationFolders = Object.fromEntries(p.automation_folders.map((f) => [f.automation_id, f.folder]));
  }
  return out;
}
