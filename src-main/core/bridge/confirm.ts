import { toolPolicyOf } from '../../../src-shared/assistant';
import { GUARDED_SETTINGS, type SettingsPatch, type SettingsView } from '../../../src-shared/ipc/settings';
import type { AgentCommand } from '../../../src-shared/settings';
import { quotedCommand, quotedWord, safeLine } from '../../../src-shared/safe-text';
import { redactForDisplay } from '../api/redact';

/**
 * A change to what Postdesk runs or publishes, in the words the user confirms it in. The words are ours; each
 * value the page chose (a program, an argument, a folder, an automation id, an agent type) appears only
 * quoted by `quotedWord`, with anything that would act on a terminal or dialog shown escaped, so no value can
 * end its line, redraw the question or pass for another.
 */
export interface PowerChange {
  readonly title: string;
  /** Each change in full, one line each: the program with every argument, the folder. */
  readonly lines: readonly string[];
}

export type Confirmation =
  { readonly confirmed: true } | { readonly confirmed: false; readonly reason: string };

/**
 * Asks the user outside the page: the desktop app's own dialog, or the terminal that started `postdesk web`.
 * Only an explicit yes confirms; anything else (no, closed, timed out) is a refusal with a reason for the page.
 */
export interface ConfirmPort {
  confirm(change: PowerChange): Promise<Confirmation>;
}

export const NOT_CONFIRMED =
  'The change was not confirmed. The programs and folders Postdesk uses change only once you confirm them.';

/** Where nobody can be asked: every guarded change is refused with this reason. */
export function refuseAll(reason: string): ConfirmPort {
  return { confirm: async () => ({ confirmed: false, reason }) };
}

/** One question at a time: a page cannot pile up dialogs, and a second ask while one is open is refused. */
export function oneAtATime(port: ConfirmPort): ConfirmPort {
  let busy = false;
  return {
    async confirm(change) {
      if (busy) {
        return { confirmed: false, reason: 'Another change is waiting for your confirmation.' };
      }
      busy = true;
      try {
        return await port.confirm(change);
      } finally {
        busy = false;
      }
    },
  };
}

/** The program and every argument, each quoted: exactly what runs, where each word ends plain to see. */
const commandLine = (c: Pick<AgentCommand, 'command' | 'args'>): string =>
  quotedCommand([c.command, ...c.args]);

function agentLines(before: readonly AgentCommand[], after: readonly AgentCommand[]): string[] {
  const was = new Map(before.map((c) => [c.agent_type, c]));
  const lines: string[] = [];
  for (const c of after) {
    const old = was.get(c.agent_type);
    was.delete(c.agent_type);
    if (old && commandLine(old) === commandLine(c)) continue;
    lines.push(`Agent ${quotedWord(c.agent_type)} runs: ${commandLine(c)}`);
  }
  for (const type of was.keys()) lines.push(`Agent ${quotedWord(type)} is removed`);
  return lines;
}

function folderLines(
  before: SettingsView['automation_folders'],
  after: SettingsView['automation_folders'],
): string[] {
  const was = new Map(before.map((f) => [f.automation_id, f.folder]));
  const lines: string[] = [];
  for (const f of after) {
    const old = was.get(f.automation_id);
    was.delete(f.automation_id);
    if (old !== f.folder)
      lines.push(`Automation ${quotedWord(f.automation_id)} publishes files from: ${quotedWord(f.folder)}`);
  }
  for (const id of was.keys()) lines.push(`Automation ${quotedWord(id)} no longer has a folder`);
  return lines;
}

/** Which agent runs which automation, in the words the Automations screen uses. */
export const agentName = (type: string): string =>
  type === 'card'
    ? 'the built-in caption card'
    : type === 'folder'
      ? 'the built-in folder agent'
      : `agent ${quotedWord(type)}`;

/**
 * `commands`: the agent commands once the patch is saved, so that a choice names the program it will run.
 */
function agentChoiceLines(
  before: SettingsView['automation_agents'],
  after: SettingsView['automation_agents'],
  commands: readonly AgentCommand[],
): string[] {
  const programs = new Map(commands.map((c) => [c.agent_type, commandLine(c)]));
  const was = new Map(before.map((a) => [a.automation_id, a.agent_type]));
  const lines: string[] = [];
  for (const a of after) {
    const old = was.get(a.automation_id);
    was.delete(a.automation_id);
    if (old === a.agent_type) continue;
    const program = programs.get(a.agent_type);
    lines.push(
      `Automation ${quotedWord(a.automation_id)} is run by ${agentName(a.agent_type)}` +
        (program ? `, which runs: ${program}` : ''),
    );
  }
  for (const id of was.keys())
    lines.push(`Automation ${quotedWord(id)} is run by the executor's own agent again`);
  return lines;
}

/** Each tool whose policy for AI assistants changes, as the person confirms it (`postdesk mcp`, docs/mcp.md). */
function policyLines(
  before: SettingsView['assistant_tool_policies'],
  after: SettingsView['assistant_tool_policies'],
): string[] {
  const lines: string[] = [];
  for (const tool of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const was = toolPolicyOf(tool, before);
    const now = toolPolicyOf(tool, after);
    if (was !== now) lines.push(`An AI assistant's ${tool}: ${now} (was ${was})`);
  }
  return lines;
}

const toolLine = (tool: string, path: string | null): string =>
  `${tool}: ${path === null ? 'the one bundled with Postdesk (else the one on PATH)' : quotedWord(path)}`;

const ADDRESS_LINES = {
  base_url: (url: string | null) =>
    `Requests, with your API key, go to: ${url ? safeLine(url) : 'no address'}`,
  alias_url: (url: string | null) =>
    `If the main address fails, requests with your API key go to: ${url ? safeLine(url) : 'nowhere'}`,
  proxy_url: (url: string | null) =>
    `Requests go through the proxy: ${url ? safeLine(redactForDisplay(url)) : 'none'}`,
} as const;

/**
 * The guarded part of a settings patch that really changes something, or null when there is none: a patch
 * that leaves programs and folders as they are needs no confirmation.
 */
export function guardedChange(
  current: Readonly<SettingsView>,
  patch: Readonly<SettingsPatch>,
): PowerChange | null {
  const lines: string[] = [];
  for (const key of GUARDED_SETTINGS) {
    if (patch[key] === undefined) continue;
    if (key === 'agent_commands')
      lines.push(...agentLines(current.agent_commands, patch.agent_commands ?? []));
    else if (key === 'automation_folders')
      lines.push(...folderLines(current.automation_folders, patch.automation_folders ?? []));
    else if (key === 'automation_agents')
      lines.push(
        ...agentChoiceLines(
          current.automation_agents,
          patch.automation_agents ?? [],
          patch.agent_commands ?? current.agent_commands,
        ),
      );
    else if (key === 'assistant_tool_policies')
      lines.push(...policyLines(current.assistant_tool_policies, patch.assistant_tool_policies ?? {}));
    else if (patch[key] === current[key]) continue;
    else if (key === 'ffmpeg_path' || key === 'ffprobe_path')
      lines.push(toolLine(key === 'ffmpeg_path' ? 'ffmpeg' : 'ffprobe', patch[key] ?? null));
    else lines.push(ADDRESS_LINES[key](patch[key] ?? null));
  }
  return lines.length ? { title: 'Change what Postdesk runs, publishes or where it connects?', lines } : null;
}
