import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import zones of eslint.config.js, fed to the real eslint from a file in each zone: every forbidden import must
 * be refused (as a static import, a type import, a re-export and an `import()`), every allowed one accepted. The
 * files need not exist: the path alone decides which zone applies.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: join(ROOT, 'eslint.config.js') });
const ZONE_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

const NODE_BUILTINS = [
  ...new Set(builtinModules.flatMap((m) => (m.startsWith('node:') ? [m] : [m, `node:${m}`]))),
];

const FORMS = {
  import: (s: string) => `import '${s}';`,
  'import type': (s: string, n: number) => `import type { T${n} } from '${s}'; export type { T${n} };`,
  're-export': (s: string) => `export * from '${s}';`,
  'import()': (s: string) => `void import('${s}');`,
} as const;
type Form = keyof typeof FORMS;
const ALL_FORMS = Object.keys(FORMS) as Form[];

/** Lints `code` as if written at `file`: it must parse, and the file must be one eslint looks at. */
async function lint(file: string, code: string): Promise<Linter.LintMessage[]> {
  const results = await eslint.lintText(code, { filePath: join(ROOT, file) });
  expect(results).toHaveLength(1);
  const { messages } = results[0]!;
  expect(messages.filter((m) => m.fatal || m.ruleId === null)).toEqual([]);
  return messages;
}

/** Lints one text that imports every specifier in every form, as if written at `file`; returns what was refused. */
async function refusedForms(file: string, specifiers: readonly string[]): Promise<Record<string, Form[]>> {
  const lines: { specifier: string; form: Form }[] = [];
  for (const specifier of specifiers) for (const form of ALL_FORMS) lines.push({ specifier, form });
  const code = lines.map(({ specifier, form }, n) => FORMS[form](specifier, n)).join('\n');
  const messages = await lint(file, code);
  const refused: Record<string, Form[]> = Object.fromEntries(specifiers.map((s) => [s, []]));
  const seen = new Set<number>();
  for (const m of messages) {
    if (!ZONE_RULES.has(m.ruleId ?? '') || seen.has(m.line)) continue;
    seen.add(m.line);
    const at = lines[m.line - 1]!;
    refused[at.specifier]!.push(at.form);
  }
  return refused;
}

/** The zone rule messages eslint gives for `code` written at `file`. */
async function zoneMessages(file: string, code: string): Promise<string[]> {
  return (await lint(file, code)).filter((m) => ZONE_RULES.has(m.ruleId ?? '')).map((m) => m.message);
}

async function expectZone(file: string, zone: { forbidden: readonly string[]; allowed: readonly string[] }) {
  const forbidden = await refusedForms(file, zone.forbidden);
  expect(forbidden).toEqual(Object.fromEntries(zone.forbidden.map((s) => [s, ALL_FORMS])));
  const allowed = await refusedForms(file, zone.allowed);
  expect(allowed).toEqual(Object.fromEntries(zone.allowed.map((s) => [s, []])));
}

describe('import zones', () => {
  it('src-shared: no Node built-in, Electron, React or other source tree', async () => {
    await expectZone('src-shared/ipc/probe.ts', {
      forbidden: [
        ...NODE_BUILTINS,
        'electron',
        'react',
        '../../src-main/core/services',
        '../../src-renderer/src/stores/bridge',
        '../../src-sandbox/app',
        '../../src-preload/index',
      ],
      allowed: ['zod', '../api/posts', './contract'],
    });
  });

  it('the preload: electron and src-shared only', async () => {
    await expectZone('src-preload/index.ts', {
      forbidden: [
        ...NODE_BUILTINS,
        'zod',
        'react',
        'electron-updater',
        '../src-main/core/services',
        '../src-renderer/src/stores/bridge',
        '../src-sandbox/app',
      ],
      allowed: ['electron', '../src-shared/ipc/contract', '../src-shared/ipc/bridge', './listeners'],
    });
  });

  it('the renderer: no Node built-in, Electron or other tree; screens never import the bridge', async () => {
    const outside = [...NODE_BUILTINS, 'electron', 'electron/renderer'];
    for (const file of [
      'src-renderer/src/features/compose/Probe.tsx',
      'src-renderer/src/components/Probe.tsx',
    ]) {
      await expectZone(file, {
        forbidden: [
          ...outside,
          '../../../../src-main/core/services',
          '../../../../src-sandbox/app',
          '../../../../src-preload/index',
          '../../stores/bridge',
          '../stores/bridge',
          '../../../../src-shared/ipc/ws-client',
        ],
        allowed: [
          'react',
          'zustand',
          'zustand/react/shallow',
          '../../stores/use-posts-store',
          '../Dialog',
          '../../../../src-shared/ipc',
          '../../../../src-shared/api/posts',
          './compose.css',
        ],
      });
    }
    await expectZone('src-renderer/src/app/App.tsx', {
      forbidden: [...outside, '../stores/bridge', '../../../src-shared/ipc/ws-client'],
      allowed: ['../stores/use-connection-store', './router', '../../../src-shared/ipc'],
    });
  });

  it('the renderer: stores reach the bridge, main.tsx installs the web bridge, nothing else does either', async () => {
    await expectZone('src-renderer/src/stores/use-posts-store.ts', {
      forbidden: [
        ...NODE_BUILTINS,
        'electron',
        '../../../src-shared/ipc/ws-client',
        '../../../src-main/core/services',
      ],
      allowed: ['./bridge', 'zustand', '../app/router', '../../../src-shared/ipc'],
    });
    await expectZone('src-renderer/src/main.tsx', {
      forbidden: [...NODE_BUILTINS, 'electron', './stores/bridge'],
      allowed: ['../../src-shared/ipc/ws-client', './app/App', 'react-dom/client', './styles/tokens.css'],
    });
  });

  it('the renderer: window.postdesk is read in stores/bridge.ts only', async () => {
    const read = 'export const b = window.postdesk;\nexport const c = globalThis.postdesk;';
    for (const file of [
      'src-renderer/src/features/posts/PostsScreen.tsx',
      'src-renderer/src/stores/use-posts-store.ts',
      'src-renderer/src/main.tsx',
    ]) {
      expect(await zoneMessages(file, read), file).toHaveLength(2);
    }
    expect(await zoneMessages('src-renderer/src/stores/bridge.ts', read)).toEqual([]);
  });

  it('src-main/core: no Electron, app shell, CLI, renderer, preload or sandbox, in any folder depth', async () => {
    for (const [file, up] of [
      ['src-main/core/probe.ts', '../'],
      ['src-main/core/api/probe.ts', '../../'],
      ['src-main/core/executor/agents/probe.ts', '../../../'],
    ] as const) {
      await expectZone(file, {
        forbidden: [
          'electron',
          'electron/main',
          `${up}app/shell`,
          `${up}cli/main`,
          `${up}cli/sandbox-connect`,
          `${up}host/session`,
          `${up}../src-main/host/csp`,
          `${up}../src-main/app/shell`,
          `${up}../src-sandbox/app`,
          `${up}../src-sandbox/main`,
          `${up}../src-renderer/src/stores/bridge`,
          `${up}../src-preload/index`,
        ],
        allowed: [
          'node:fs',
          'fs',
          'node:sqlite',
          'better-sqlite3',
          'undici',
          `${up}../src-shared/api`,
          // A file named app in src-shared is not the app shell.
          `${up}../src-shared/ipc/app`,
          `${up}sandbox-link`,
          './paths',
        ],
      });
    }
  });

  it('src-main/host: core, src-shared and Node; never Electron, the app shell, the CLI or the sandbox', async () => {
    await expectZone('src-main/host/probe.ts', {
      forbidden: [
        'electron',
        '../app/shell',
        '../cli/web/run-web',
        '../../src-sandbox/app',
        '../../src-renderer/src/stores/bridge',
        '../../src-preload/index',
      ],
      allowed: ['node:crypto', '../core/bridge/host-ports', '../../src-shared/ipc', './csp'],
    });
  });

  it('the CLI and the app shell: src-sandbox only in the modules that start it', async () => {
    const starters = [
      'src-main/cli/sandbox-connect.ts',
      'src-main/cli/commands/sandbox.ts',
      'src-main/app/main.ts',
    ];
    // The exceptions are named in the config; a renamed starter must be renamed there too.
    for (const f of starters) expect(existsSync(join(ROOT, f)), f).toBe(true);

    await expectZone('src-main/cli/commands/probe.ts', {
      forbidden: ['electron', '../../app/shell', '../../../src-preload/index', '../../../src-sandbox/app'],
      allowed: [
        'commander',
        'node:fs',
        '../../core/services',
        '../sandbox-connect',
        '../../../src-shared/api',
      ],
    });
    await expectZone('src-main/cli/web/probe.ts', {
      forbidden: ['electron', '../../app/shell', '../../../src-sandbox/app'],
      allowed: ['ws', 'node:http', '../../core/services', '../sandbox-connect'],
    });
    await expectZone('src-main/app/window.ts', {
      forbidden: ['../../src-sandbox/app'],
      allowed: ['electron', 'node:path', '../core/services', '../../src-shared/ipc'],
    });
    await expectZone('src-main/cli/sandbox-connect.ts', {
      forbidden: ['electron', '../app/shell'],
      allowed: ['../../src-sandbox/app', '../core/sandbox-link'],
    });
    await expectZone('src-main/cli/commands/sandbox.ts', {
      forbidden: ['electron'],
      allowed: ['../../../src-sandbox/main', 'commander'],
    });
    await expectZone('src-main/app/main.ts', {
      forbidden: [],
      allowed: ['../../src-sandbox/app', 'electron', '../core/services'],
    });
  });

  it('src-sandbox stands alone: src-shared, Node, its own packages and the file door only', async () => {
    await expectZone('src-sandbox/posts/probe.ts', {
      forbidden: [
        'electron',
        '../../src-main/core/services',
        '../../src-main/core/filesystem',
        '../../src-main/core/files-extra/x',
        '../../src-main/core',
        '../../src-renderer/src/stores/bridge',
        '../../src-preload/index',
      ],
      allowed: [
        'fastify',
        'node:path',
        'better-sqlite3',
        '../../src-shared/api',
        '../store',
        '../../src-main/core/files',
        '../../src-main/core/files/no-follow',
      ],
    });
  });

  it('src-main/core/files, the door for files, imports node: built-ins and its own modules only', async () => {
    await expectZone('src-main/core/files/no-follow.ts', {
      forbidden: ['../common/error-text', '../../../src-shared/api', 'zod', 'fs', 'electron'],
      allowed: ['node:fs', 'node:path', './within'],
    });
  });

  it('raw ipcMain/ipcRenderer only in the IPC gate and the preload', async () => {
    const raw = "import { ipcMain, ipcRenderer } from 'electron';\nexport { ipcMain, ipcRenderer };";
    expect(await zoneMessages('src-main/app/window.ts', raw)).toHaveLength(2);
    expect(await zoneMessages('src-main/app/main.ts', raw)).toHaveLength(2);
    expect(await zoneMessages('src-main/app/ipc-gate.ts', raw)).toEqual([]);
    expect(await zoneMessages('src-preload/index.ts', raw)).toEqual([]);
  });
});
