/**
 * The class of "untrusted text drives what a person reads": one door (src-shared/safe-text.ts), and every
 * place text is shown to a person outside the page goes through it. Two halves:
 *
 * - Each path, fed the same hostile text (cursor moves, line erase, a carriage return, newlines, the
 *   one-byte C1 CSI, an OSC title, a right-to-left override): terminal confirmations, native dialogs, the
 *   logs (core's line logger, the app's log file and stderr, the CLI's --verbose), CLI tables and fields,
 *   notifications, the tray menu and uploaded file names. A terminal path is read through a small VT model;
 *   every one must show one line per entry with the text escaped, nothing erased, no OSC acted on.
 * - The sites: a walk over the syntax of src-main, src-shared and src-sandbox finds every native dialog, notification, console call, raw
 *   stream write and control-character regex, and each must sit in the module that wraps it (or on the short
 *   list below, with the reason it is safe), so a new site cannot skip the door unnoticed.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import ts from 'typescript';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dialog } from 'electron';
import { Settings } from '../../src-shared/settings';
import { toSettingsView, type SettingsPatch } from '../../src-shared/ipc/settings';
import { electronFake } from '../helpers/electron-fake';
import { MemoryLog } from '../helpers/shell-fakes';
import { VtScreen } from '../helpers/vt-screen';

vi.mock('electron', () => electronFake.module);

const { guardedChange } = await import('../../src-main/core/bridge/confirm');
const { terminalConfirm } = await import('../../src-main/cli/web/terminal-confirm');
const { dialogConfirm, dialogAskToQuit } = await import('../../src-main/app/dialogs');
const { createLineLogger } = await import('../../src-main/core/common/logger');
const { createAppLog } = await import('../../src-main/app/log');
const { appLogFile } = await import('../../src-main/core/paths');
const { createDeps } = await import('../../src-main/cli/context');
const { Output, truncate } = await import('../../src-main/cli/output');
const { NotificationService } = await import('../../src-main/app/notifications');
const { DeepLinkRouter } = await import('../../src-main/app/deep-links');
const { menuLabel } = await import('../../src-main/app/tray');
const { uploadName } = await import('../../src-main/cli/web/upload-route');

/** Hostile text: it would move up a line and erase it, return to the start, break the line, clear the
 * screen (C1 CSI), set the terminal's title, and reverse what follows. */
const HOSTILE =
  'Daily\x1b[1A\x1b[2K\rApproved\nSecond line\x9b2J\x1b]0;owned\x07 invoice\u202Egpj.exe\x1b]8;;https://evil.example\x07';
/** What each path must show of it, visibly. */
const SHOWN = ['\\x1b[1A\\x1b[2K\\r', '\\n', '\\u009b2J', '\\x1b]0;owned\\x07', '\\u202e', '\\x1b]8;;'];
/** What no path may leave in its text: the characters a terminal or a dialog acts on (but the line feed between entries). */
const ACTS = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

const expectShownEscaped = (text: string, where: string): void => {
  for (const s of SHOWN) expect(text, where).toContain(s);
};

/** Reads what a terminal shows after `data`: the lines, and that nothing was acted on. */
function terminal(data: string): string[] {
  const vt = new VtScreen().write(data);
  expect(vt.osc, 'an OSC string reached the terminal').toEqual([]);
  return vt.lines();
}

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'pd-text-class-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const current = toSettingsView(Settings.parse({}), { log_file: null });
/** A change to every guarded setting, each value hostile. */
const HOSTILE_PATCH = {
  agent_commands: [{ agent_type: HOSTILE, command: `/bin/${HOSTILE}`, args: [HOSTILE, '-x'] }],
  automation_folders: [{ automation_id: HOSTILE, folder: `/home/${HOSTILE}` }],
  automation_agents: [{ automation_id: `${HOSTILE}2`, agent_type: HOSTILE }],
  ffmpeg_path: `/opt/${HOSTILE}`,
  ffprobe_path: `/opt/${HOSTILE}`,
  base_url: `https://x.example/${HOSTILE}`,
  alias_url: `https://y.example/${HOSTILE}`,
  proxy_url: `http://p.example/${HOSTILE}`,
} as unknown as SettingsPatch;

describe('every path shows hostile text escaped, one line per entry', () => {
  beforeEach(() => electronFake.reset());

  it('the confirmation of every guarded setting, in the terminal of postdesk web', async () => {
    const change = guardedChange(current, HOSTILE_PATCH);
    expect(change).not.toBeNull();
    const lines = change?.lines ?? [];
    expect(lines.length).toBe(8);
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const output = new PassThrough();
    let said = '';
    output.on('data', (d: Buffer) => (said += d.toString()));
    const answer = terminalConfirm({ input, output }, { timeoutMs: 2000 }).confirm(change!);
    for (let i = 0; i < 200 && !said.includes('Type "yes"'); i++) await new Promise((r) => setTimeout(r, 5));
    input.write('no\n');
    expect(await answer).toMatchObject({ confirmed: false });
    const screen = terminal(said);
    const start = screen.indexOf('The Postdesk page asks to make this change:');
    const shown = screen.slice(start + 1, start + 1 + lines.length);
    expect(shown).toEqual(lines.map((l) => `  ${l}`));
    expect(screen[start + 1 + lines.length]).toMatch(/^Allow it\?/);
    for (const l of shown) {
      expect(l).not.toMatch(ACTS);
      if (!l.includes('proxy')) expectShownEscaped(l, l);
    }
  });

  it("the same confirmation in main's own dialog, and the quit question", async () => {
    const change = guardedChange(current, HOSTILE_PATCH)!;
    const dialog = electronFake.module.dialog as unknown as Pick<Dialog, 'showMessageBox'>;
    await dialogConfirm(dialog, () => null).confirm({ ...change, title: HOSTILE });
    await dialogAskToQuit(
      dialog,
      () => null,
    )({
      next: {} as never,
      due: 1,
      message: HOSTILE,
      detail: `“${HOSTILE}” is due in 5 minutes.`,
    });
    const [confirmBox, quitBox] = electronFake.state.messageBoxes;
    const detail = (confirmBox?.detail ?? '').split('\n');
    // One line per change, a blank line, then our own sentence: no change made a line of its own.
    expect(detail).toHaveLength(change.lines.length + 2);
    for (const box of [confirmBox, quitBox]) {
      expect(box?.message).not.toMatch(ACTS);
      expectShownEscaped(box?.message ?? '', 'message');
      for (const l of (box?.detail ?? '').split('\n')) expect(l).not.toMatch(ACTS);
    }
    expectShownEscaped(quitBox?.detail ?? '', 'quit detail');
  });

  it("core's line logger, the app's log file and its stderr, and the CLI's --verbose", () => {
    const written: string[] = [];
    const log = createLineLogger((l) => written.push(l), 'debug');
    log.warn(HOSTILE, { error: HOSTILE });
    expect(written).toHaveLength(1);
    expect(written[0]).not.toMatch(ACTS);
    expectShownEscaped(written[0] ?? '', 'line logger');

    const dir = tempDir();
    const stderr: string[] = [];
    const app = createAppLog(dir, { stderr: (l) => stderr.push(l) });
    app.error(HOSTILE, { reason: HOSTILE });
    app.info('next entry');
    app.close();
    const file = readFileSync(appLogFile(dir), 'utf8').trimEnd().split('\n');
    expect(file).toHaveLength(2);
    expect(file[1]).toMatch(/ info next entry$/);
    const onStderr = terminal(`${stderr.join('\n')}\n`);
    expect(onStderr).toHaveLength(2);
    for (const text of [file[0] ?? '', onStderr[0] ?? '']) {
      expect(text).not.toMatch(ACTS);
      expectShownEscaped(text, 'app log');
    }

    let cliStderr = '';
    const err = new PassThrough();
    err.on('data', (d: Buffer) => (cliStderr += d.toString()));
    const { deps, state } = createDeps({
      stdout: new PassThrough(),
      stderr: err,
      stdin: new PassThrough(),
      env: {},
    });
    state.setVerbose(true);
    deps.log.warn(HOSTILE);
    const screen = terminal(cliStderr);
    expect(screen).toHaveLength(1);
    expectShownEscaped(screen[0] ?? '', 'cli verbose');
  });

  it('CLI tables, fields and shortened captions', () => {
    let said = '';
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 400 });
    stdout.on('data', (d: Buffer) => (said += d.toString()));
    const out = new Output({ stdout, stderr: new PassThrough(), stdin: new PassThrough(), env: {} }, false);
    out.table(['name', 'caption'], [[HOSTILE, truncate(HOSTILE, 200)]]);
    const table = terminal(said);
    // top rule, head, rule, one row, bottom rule
    expect(table).toHaveLength(5);
    expectShownEscaped(table[3] ?? '', 'table cell');
    said = '';
    out.fields([['name', HOSTILE]]);
    const fields = terminal(said);
    expect(fields).toHaveLength(1);
    expectShownEscaped(fields[0] ?? '', 'field');
  });

  it('notifications, the tray menu and the name of an uploaded file', () => {
    const service = new NotificationService({
      router: new DeepLinkRouter(new MemoryLog()),
      reveal: () => undefined,
      log: new MemoryLog(),
      platform: 'darwin',
    });
    service.runFailed({ runId: 'r1', automationName: HOSTILE, error: HOSTILE } as never);
    service.dueSoon({ title: HOSTILE, body: HOSTILE });
    const shown = electronFake.state.notifications.map((n) => n.options);
    expect(shown).toHaveLength(2);
    for (const { title, body } of shown) {
      for (const text of [title, body]) {
        expect(text).not.toMatch(ACTS);
        expectShownEscaped(text, 'notification');
      }
    }
    for (const text of [menuLabel(HOSTILE), uploadName(encodeURIComponent(HOSTILE))]) {
      expect(text).not.toMatch(ACTS);
      expect(text).toContain('\\x1b[1A');
    }
  });
});

// ---- the sites -------------------------------------------------------------------------------------------

const ROOT = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

interface Site {
  readonly file: string;
  readonly kind: string;
}

/** Every place src-main, src-shared or src-sandbox shows text to a person outside the page, or writes an escaper of its own. */
function sitesOf(file: string): Site[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const sites: Site[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const target = node.expression.expression.getText(sf);
      if (
        /^show(MessageBox|MessageBoxSync|ErrorBox|OpenDialog|OpenDialogSync|SaveDialog|SaveDialogSync)$/.test(
          name,
        )
      )
        sites.push({ file, kind: 'native dialog' });
      if (target === 'console') sites.push({ file, kind: 'console' });
      if (name === 'write' && /(^|\.)(stdout|stderr|output)$/.test(target))
        sites.push({ file, kind: `raw write (${target})` });
    }
    if (ts.isNewExpression(node) && node.expression.getText(sf) === 'Notification')
      sites.push({ file, kind: 'notification' });
    // A regex literal, or one built with `new RegExp(…)`, that names control or bidi characters.
    const pattern = ts.isRegularExpressionLiteral(node)
      ? node.text
      : ts.isNewExpression(node) && node.expression.getText(sf) === 'RegExp'
        ? (node.arguments ?? []).map((a) => a.getText(sf)).join(' ')
        : null;
    if (pattern !== null && /\\x1b|\\u001b|\\x00-|\\u0000-|\\p\{Cc\}|\\u202[a-e]/i.test(pattern))
      sites.push({ file, kind: 'control-character regex' });
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return sites;
}

/**
 * Where each kind may be, and why it is safe there. Anything else is a new site: route it through the door
 * (src-shared/safe-text.ts, or the module that wraps the kind) rather than add it here.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'src-main/app/dialogs.ts native dialog':
    'the one module of native dialogs: it passes their words through safeLine',
  'src-main/app/notifications.ts notification':
    'the one place a notification is made: title and body through safeLine',
  'src-main/cli/output.ts raw write (this.io.stdout)':
    'Output: every line through scrubForTerminal/scrubLine',
  'src-main/cli/output.ts raw write (this.io.stderr)': 'Output: every line through scrubForTerminal',
  'src-main/cli/web/terminal-confirm.ts raw write (io.output)':
    'the terminal question: each line through safeLine',
  'src-main/cli/context.ts raw write (io.stderr)':
    'the --verbose log: lines from the line logger, made safe there',
  'src-main/app/log.ts raw write (process.stderr)':
    'the app log: lines from the line logger, made safe there',
  'src-main/cli/commands/sandbox.ts raw write (deps.io.stderr)':
    "the sandbox's usage errors (commander's, a seed that cannot be read), through scrubForTerminal",
  'src-main/cli/program.ts raw write (io.stdout)': "commander's help and errors, through scrubForTerminal",
  'src-main/cli/program.ts raw write (io.stderr)': "commander's help and errors, through scrubForTerminal",
  'src-main/cli/main.ts raw write (process.stdout)': 'an empty write that flushes before exit',
  'src-main/cli/main.ts raw write (process.stderr)': 'an empty write that flushes before exit',
  'src-main/cli/commands/web.ts raw write (deps.io.stdout)':
    "postdesk web's own lines (addresses, the link, the sandbox's published demo key, which Output would redact)",
  'src-main/cli/commands/completion.ts raw write (deps.io.stdout)':
    'a completion script, generated from our commands',
  'src-main/cli/commands/login.ts raw write (io.stderr)':
    "the muted prompt's own echo of what the user types",
  'src-main/core/executor/agents/folder-agent-main.ts raw write (process.stderr)':
    "the folder agent's protocol lines to the executor, which logs them through the line logger",
  'src-main/core/executor/agents/folder-agent-main.ts raw write (process.stdout)':
    "the folder agent's protocol lines to the executor, which logs them through the line logger",
  'src-shared/safe-text.ts control-character regex': 'the door itself',
  'src-sandbox/app.ts console': "the sandbox's own error lines, each message through safeLine",
  'src-sandbox/main.ts console': "the sandbox's own error lines, each message through safeLine",
  'src-sandbox/main.ts raw write (process.stdout)': 'the addresses it listens on and its published demo key',
  'src-main/cli/table-layout.ts control-character regex': 'measures our own colour codes; no escaping',
  'src-main/core/command-line/launcher.ts control-character regex': 'refuses a path, shows nothing',
  'src-main/core/executor/confine/sandbox-exec.ts control-character regex': 'refuses a path, shows nothing',
};

describe('every site that shows text to a person goes through the door', () => {
  it('native dialogs, notifications, console, raw stream writes and escapers sit only where they are wrapped', () => {
    const files = ['src-main', 'src-shared', 'src-sandbox'].flatMap(sourceFiles);
    const found = new Set(files.flatMap(sitesOf).map((s) => `${s.file} ${s.kind}`));
    // The walk sees the sites it must: the wrappers themselves.
    expect(found).toContain('src-main/app/dialogs.ts native dialog');
    expect(found).toContain('src-main/app/notifications.ts notification');
    expect(found).toContain('src-main/cli/web/terminal-confirm.ts raw write (io.output)');
    expect(found).toContain('src-shared/safe-text.ts control-character regex');
    const unwrapped = [...found].filter((k) => !Object.hasOwn(ALLOWED, k));
    expect(unwrapped, 'route these through src-shared/safe-text.ts (or its wrapper module)').toEqual([]);
  });

  it('the walk would catch a new one', () => {
    const file = join(tempDir(), 'bad.ts');
    const code = [
      "dialog.showErrorBox('x', name);",
      'new Notification({ title: name });',
      'console.log(name);',
      'process.stdout.write(name);',
      'const strip = /\\x1b\\[[0-9;]*m/g;',
      "const bidi = new RegExp('[\\\\u202a-\\\\u202e]', 'g');",
    ].join('\n');
    const sf = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
    expect(sf.statements).toHaveLength(6);
    writeFileSync(file, code);
    const kinds = sitesOf(relative(ROOT, file)).map((s) => s.kind);
    expect(kinds).toEqual([
      'native dialog',
      'notification',
      'console',
      'raw write (process.stdout)',
      'control-character regex',
      'control-character regex',
    ]);
  });
});
