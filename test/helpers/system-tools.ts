/**
 * The one door for tests that run an optional system tool (zsh, fish, gnome-keyring, bubblewrap, systemd-analyze;
 * the list and the package of each in scripts/system-tools.txt). Where the tool is missing, the test is skipped and
 * the run's end says which tool and why (missing-tools-reporter.ts); under CI=true on Linux a missing tool fails
 * instead, so CI still proves every such test (.ci/run and the GitHub workflow install the list; on macOS and
 * Windows these Debian packages are not to be had, and CI skips them too). Use it as the options of `it` or
 * `describe`:
 *
 *   it('completes in zsh', needsTool('zsh', 'the zsh completion script is run in zsh'), () => { … });
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import type { TestOptions } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** Set on a test skipped because a system tool is missing: which, and what needs it. */
    missingTool?: { readonly tools: readonly string[]; readonly why: string };
  }
}

export interface SystemTool {
  readonly need: 'required' | 'optional';
  readonly command: string;
  /** The Debian/Ubuntu package that brings it. */
  readonly package: string;
  readonly what: string;
}

export const SYSTEM_TOOLS_FILE = resolve(import.meta.dirname, '../../scripts/system-tools.txt');

/** scripts/system-tools.txt, parsed: `need command package what needs it`, `#` comments. */
export function systemTools(text = readFileSync(SYSTEM_TOOLS_FILE, 'utf8')): SystemTool[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((line) => {
      const [need, command, pkg, ...what] = line.split(/\s+/);
      if ((need !== 'required' && need !== 'optional') || !command || !pkg) {
        throw new Error(`system-tools.txt: cannot read the line "${line}"`);
      }
      return { need, command, package: pkg, what: what.join(' ') };
    });
}

/** Whether `command` is an executable file in a folder of `path` (a PATH value). */
export function onPath(command: string, path = process.env.PATH ?? ''): boolean {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      const file = join(dir, command);
      try {
        if (!statSync(file).isFile()) return false;
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

export interface ToolCheck {
  /** The optional tools that are on PATH. */
  readonly present: (command: string) => boolean;
  /** CI=true: a missing tool is a failure, not a skip. */
  readonly ci: boolean;
  readonly tools?: readonly SystemTool[];
}

/**
 * The test options for a test that runs `commands`: none when all are there; a skip with the reason when one is
 * missing; under CI, an error that fails the file, naming the package to install.
 */
export function toolRequirement(
  commands: string | readonly string[],
  why: string,
  check: ToolCheck,
): TestOptions {
  const tools = check.tools ?? systemTools();
  const wanted = typeof commands === 'string' ? [commands] : [...commands];
  const known = wanted.map((command) => {
    const tool = tools.find((t) => t.command === command && t.need === 'optional');
    if (!tool) throw new Error(`needsTool: "${command}" is not an optional tool of scripts/system-tools.txt`);
    return tool;
  });
  const missing = known.filter((t) => !check.present(t.command));
  if (missing.length === 0) return {};
  const names = missing.map((t) => t.command);
  if (check.ci) {
    throw new Error(
      `${names.join(' and ')} must be installed when CI=true (${why}): apt-get install ${missing.map((t) => t.package).join(' ')}`,
    );
  }
  return { skip: true, meta: { missingTool: { tools: names, why } } };
}

/** The options of an `it` or `describe` that runs `commands`; see the top of this file. */
export function needsTool(commands: string | readonly string[], why: string): TestOptions {
  return toolRequirement(commands, why, { present: (c) => onPath(c), ci: toolsRequired(process.env.CI) });
}

/** Whether a missing tool fails rather than skips: under CI, on Linux, where CI installs the list. */
export function toolsRequired(ci: string | undefined, platform: NodeJS.Platform = process.platform): boolean {
  return isCi(ci) && platform === 'linux';
}

/** CI=true (or any value but empty, 0 and false), as CI services set it. */
export function isCi(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false'].includes(value.toLowerCase());
}
