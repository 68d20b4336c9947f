// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * Import zones: the arrows of style.md, enforced here rather than remembered; test/unit/lint/zones.test.ts feeds each
 * ban to eslint from each zone, so an edit here cannot silently open one.
 *
 * A ban is a regular expression over the module specifier as written. The same expression is checked on static
 * imports and re-exports (no-restricted-imports) and on `import()` (no-restricted-syntax), because the lazy imports
 * that start the sandbox are exactly the ones a zone must also see.
 */
const escape = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A tree of the repository however it is reached: `../../src-sandbox/app`, `src-sandbox`. */
const tree = (/** @type {string} */ name) => `(^|\\/)${escape(name)}(\\/|$)`;
/** A folder of src-main seen from a sibling folder: `../app/x`, `../../../src-main/cli`. */
const mainFolder = (/** @type {string} */ name) => `^(\\.\\.\\/)+(src-main\\/)?${escape(name)}(\\/|$)`;

/** Every Node built-in, as `fs` and as `node:fs` (a few, like `node:sqlite`, exist only with the prefix). */
const NODE_BUILTINS = [
  ...new Set(builtinModules.flatMap((m) => (m.startsWith('node:') ? [m] : [m, `node:${m}`]))),
];
const NODE = `^(${NODE_BUILTINS.map(escape).join('|')})$`;
const ELECTRON = '^electron(\\/|$)';
const REACT = '^react(-dom)?(\\/|$)';
const MAIN = tree('src-main');
const RENDERER = tree('src-renderer');
const SANDBOX = tree('src-sandbox');
const PRELOAD = tree('src-preload');
/** The renderer's only door to window.postdesk (src-renderer/src/stores/bridge.ts). */
const RENDERER_BRIDGE = '(^|\\/)stores\\/bridge(\\.ts)?$';
/** Builds window.postdesk over the web host's WebSocket: main.tsx installs it once. */
const WEB_BRIDGE = '(^|\\/)ipc\\/ws-client(\\.ts)?$';

/** @typedef {{ ban: string, why: string }} Ban */
/** @typedef {{ selector: string, message: string }} SyntaxBan */

const RAW_IPC = /** @type {SyntaxBan[]} */ ([
  {
    selector: 'ImportSpecifier[imported.name=/^ipc(Main|Renderer)$/]',
    message:
      'Use the typed bridge (src-main/app/ipc-gate.ts, src-preload) rather than raw ipcMain/ipcRenderer.',
  },
]);
const WINDOW_POSTDESK = /** @type {SyntaxBan[]} */ ([
  {
    selector: 'MemberExpression[object.name=/^(window|globalThis|self)$/][property.name="postdesk"]',
    message: 'Only src-renderer/src/stores/bridge.ts reads window.postdesk; stores call bridge().',
  },
]);

/**
 * The lint rules of one zone. `syntax` lists the other no-restricted-syntax bans of these files, since a later
 * config object replaces the whole rule rather than adding to it.
 */
function zone(/** @type {Ban[]} */ bans, /** @type {SyntaxBan[]} */ syntax = RAW_IPC) {
  return {
    'no-restricted-imports': [
      'error',
      { patterns: bans.map(({ ban, why }) => ({ regex: ban, caseSensitive: true, message: why })) },
    ],
    'no-restricted-syntax': [
      'error',
      ...syntax,
      ...bans.map(({ ban, why }) => ({ selector: `ImportExpression[source.value=/${ban}/u]`, message: why })),
    ],
  };
}

const shared = 'src-shared is plain TypeScript + zod: no Node, DOM, Electron or other source trees.';
const SHARED_BANS = [NODE, ELECTRON, REACT, MAIN, RENDERER, SANDBOX, PRELOAD].map((ban) => ({
  ban,
  why: shared,
}));

const core =
  'src-main/core never imports Electron, the app shell, the CLI, the host or the sandbox (createCore takes a StartSandboxFn; the host hands in the ports of core/bridge/host-ports.ts).';
const CORE_BANS = [
  ELECTRON,
  mainFolder('app'),
  mainFolder('cli'),
  mainFolder('host'),
  RENDERER,
  PRELOAD,
  SANDBOX,
].map((ban) => ({ ban, why: core }));

const host =
  'src-main/host serves both hosts (the Electron shell and `postdesk web`): it may import core, src-shared and Node, never Electron, the app shell, the CLI or the sandbox.';
const HOST_BANS = [ELECTRON, mainFolder('app'), mainFolder('cli'), RENDERER, PRELOAD, SANDBOX].map((ban) => ({
  ban,
  why: host,
}));

const cli = 'The CLI runs without Electron.';
const CLI_BANS = [ELECTRON, mainFolder('app'), PRELOAD].map((ban) => ({ ban, why: cli }));

/**
 * The modules of src-main that start the sandbox in-process, each lazily: `postdesk … --sandbox`, `postdesk sandbox`,
 * and the desktop's "Try offline". No core module does: core takes the starter as a parameter (sandbox-link.ts).
 */
const SANDBOX_STARTERS = [
  'src-main/cli/sandbox-connect.ts',
  'src-main/cli/commands/sandbox.ts',
  'src-main/app/main.ts',
];
const NO_SANDBOX = {
  ban: SANDBOX,
  why: `Only ${SANDBOX_STARTERS.join(', ')} start the sandbox; pass their StartSandboxFn instead.`,
};

const sandbox =
  'The sandbox stands alone: it may import src-shared, and src-main/core/files (the one door for files) only.';
/** src-main, except its file door, which imports Node only: the sandbox writes its data through it too. */
const MAIN_BUT_FILES = `(^|\\/)src-main(\\/(?!core\\/files(\\/|$))|$)`;
const SANDBOX_BANS = [ELECTRON, MAIN_BUT_FILES, RENDERER, PRELOAD].map((ban) => ({ ban, why: sandbox }));

/**
 * The one door for files (docs/security.md, "Files"): nothing but src-main/core/files imports `fs`, so every
 * open, read and write in the app, the CLI and the sandbox goes through its no-follow, 0600/0700 and
 * containment checks. Its own rule (not a zone), so that a zone's later config object cannot drop it; it sees
 * static imports, re-exports, `import x = require()`, `import()`, `require()` (or any function called with the
 * name, as a require made by createRequire) and `process.getBuiltinModule()`, the name written as a string or a
 * plain template.
 */
const FS_MODULE = /^(node:)?(fs|original-fs)(\/promises)?$/;
const FS_DOOR = 'src-main/core/files';
/** @type {Record<string, string>} Each file or folder that may import fs, with the reason. */
const FS_ALLOWED = {
  [`${FS_DOOR}/**`]: 'the door itself',
  'test/**':
    'tests plant the links, hard links and loose modes an attack needs, and read the real files back',
  'bench/**': 'benchmarks build their fixtures on disk and measure the real thing',
  'scripts/**': 'build and lint scripts run in the checkout, outside the app and before it is built',
  'bin/postdesk.js':
    'the launcher runs before any source is loaded: it checks the built CLI is fresh, then loads it',
  '*.config.{js,cjs,ts}': 'tool configuration read by the build and test tools',
  'resources/agents/**':
    'example agents are programs of their own that a user copies and runs as an agent: they cannot import Postdesk',
  'resources/make-icons.ts': 'a build script that draws the icons in the checkout',
};
const noFs = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      fs: `Files go through the one door, ${FS_DOOR} (no-follow opens, private modes, containment): import from it instead of fs.`,
    },
  },
  create(/** @type {import('eslint').Rule.RuleContext} */ context) {
    /** @param {any} node @param {any} source */
    const check = (node, source) => {
      const name =
        source?.type === 'Literal'
          ? source.value
          : source?.type === 'TemplateLiteral' && source.expressions.length === 0
            ? source.quasis[0]?.value.cooked
            : null;
      if (typeof name === 'string' && FS_MODULE.test(name)) context.report({ node, messageId: 'fs' });
    };
    return {
      /** @param {any} n */ ImportDeclaration: (n) => check(n, n.source),
      /** @param {any} n */ ExportAllDeclaration: (n) => check(n, n.source),
      /** @param {any} n */ ExportNamedDeclaration: (n) => check(n, n.source),
      /** @param {any} n */ ImportExpression: (n) => check(n, n.source),
      /** @param {any} n */
      TSImportEqualsDeclaration: (n) =>
        n.moduleReference?.type === 'TSExternalModuleReference' && check(n, n.moduleReference.expression),
      // require('fs'), a require made by createRequire under any name, process.getBuiltinModule('fs').
      /** @param {any} n */
      CallExpression: (n) =>
        (n.callee.type === 'Identifier' ||
          n.callee.type === 'CallExpression' ||
          (n.callee.type === 'MemberExpression' &&
            ['require', 'getBuiltinModule'].includes(n.callee.property?.name))) &&
        check(n, n.arguments[0]),
    };
  },
};

const preload =
  'The preload builds the bridge from src-shared/ipc with electron only: no Node, no other package or tree.';
const PRELOAD_BANS = [
  NODE,
  // Any package but electron: the preload runs sandboxed, and everything else it needs comes through src-shared.
  '^(?!electron$)(?!\\.{1,2}\\/)',
  MAIN,
  RENDERER,
  SANDBOX,
].map((ban) => ({ ban, why: preload }));

const renderer = 'The renderer imports src-shared types and reaches window.postdesk through its stores only.';
const RENDERER_BANS = [NODE, ELECTRON, MAIN, SANDBOX, PRELOAD].map((ban) => ({ ban, why: renderer }));
const NO_RENDERER_BRIDGE = {
  ban: RENDERER_BRIDGE,
  why: 'Only stores (src-renderer/src/stores) call the bridge; screens and components read a store.',
};
const NO_WEB_BRIDGE = { ban: WEB_BRIDGE, why: 'Only src-renderer/src/main.tsx installs the web bridge.' };

/** Lines of code (blank lines and comments not counted) a function of src-main or src-shared may have. */
const FUNCTION_MAX_LINES = 120;

// Later objects replace a rule set by earlier ones for the files they match: the narrower zone comes last.
export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.cache/',
      'out/',
      'dist/',
      'release/',
      'test-results/',
      'playwright-report/',
      'coverage/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { postdesk: { rules: { 'no-fs': noFs } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-exports': [
        'error',
        { restrictDefaultExports: { direct: true, named: true, defaultFrom: true } },
      ],
      'no-restricted-syntax': ['error', ...RAW_IPC],
      'postdesk/no-fs': 'error',
    },
  },
  /**
   * No procedure over ~120 lines: a longer one is split into parts named for what they do, or says at its top why
   * it stays whole (an `eslint-disable-next-line max-lines-per-function -- why` line, which
   * test/unit/lint/function-size.test.ts holds to a reason).
   */
  {
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: FUNCTION_MAX_LINES, skipBlankLines: true, skipComments: true },
      ],
    },
  },
  { files: ['src-shared/**'], rules: zone(SHARED_BANS) },
  { files: ['src-main/**'], ignores: SANDBOX_STARTERS, rules: zone([NO_SANDBOX]) },
  { files: ['src-main/core/**'], rules: zone(CORE_BANS) },
  { files: ['src-main/host/**'], rules: zone(HOST_BANS) },
  // The door for files imports Node and its own modules only, so the sandbox importing it pulls in nothing of core.
  {
    files: [`${FS_DOOR}/**`],
    rules: zone([
      ...CORE_BANS,
      {
        ban: '^\\.\\.\\/',
        why: `${FS_DOOR} imports Node and its own modules only: src-sandbox imports it too.`,
      },
      {
        ban: '^(?!node:|\\.\\/)',
        why: `${FS_DOOR} imports Node built-ins (as node:…) and its own modules only.`,
      },
    ]),
  },
  { files: ['src-main/cli/**'], rules: zone([...CLI_BANS, NO_SANDBOX]) },
  { files: SANDBOX_STARTERS.filter((f) => f.startsWith('src-main/cli/')), rules: zone(CLI_BANS) },
  { files: ['src-sandbox/**'], rules: zone(SANDBOX_BANS) },
  // The preload is the one place that may touch ipcRenderer (through the contract), so no RAW_IPC here.
  { files: ['src-preload/**'], rules: zone(PRELOAD_BANS, []) },
  // The IPC gate registers the typed handlers on ipcMain: the other end of the bridge.
  { files: ['src-main/app/ipc-gate.ts'], rules: zone([NO_SANDBOX], []) },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...zone([...RENDERER_BANS, NO_RENDERER_BRIDGE, NO_WEB_BRIDGE], [...RAW_IPC, ...WINDOW_POSTDESK]),
    },
  },
  {
    files: ['src-renderer/src/stores/**'],
    rules: zone([...RENDERER_BANS, NO_WEB_BRIDGE], [...RAW_IPC, ...WINDOW_POSTDESK]),
  },
  { files: ['src-renderer/src/stores/bridge.ts'], rules: zone([...RENDERER_BANS, NO_WEB_BRIDGE]) },
  {
    files: ['src-renderer/src/main.tsx'],
    rules: zone([...RENDERER_BANS, NO_RENDERER_BRIDGE], [...RAW_IPC, ...WINDOW_POSTDESK]),
  },
  {
    files: ['*.config.ts', '*.config.js', '*.config.cjs', 'eslint.config.js'],
    rules: { 'no-restricted-exports': 'off' },
  },
  { files: Object.keys(FS_ALLOWED), rules: { 'postdesk/no-fs': 'off' } },
);
