// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Import zones: the arrows of style.md, enforced here rather than remembered. */
const zone = (/** @type {string[]} */ patterns, /** @type {string} */ message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});
const rawIpc = {
  'no-restricted-syntax': [
    'error',
    {
      selector: 'ImportSpecifier[imported.name=/^ipc(Main|Renderer)$/]',
      message:
        'Use the typed bridge (src-main/app/ipc-gate.ts, src-preload) rather than raw ipcMain/ipcRenderer.',
    },
  ],
};

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
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-exports': [
        'error',
        { restrictDefaultExports: { direct: true, named: true, defaultFrom: true } },
      ],
      ...rawIpc,
    },
  },
  {
    files: ['src-shared/**'],
    rules: zone(
      [
        'node:*',
        'electron',
        'react',
        '**/src-main/**',
        '**/src-renderer/**',
        '**/src-sandbox/**',
        '**/src-preload/**',
      ],
      'src-shared is plain TypeScript + zod: no Node, DOM, Electron or other source trees.',
    ),
  },
  {
    files: ['src-main/core/**'],
    rules: zone(
      ['electron', 'electron/*', '**/app/**', '**/cli/**', '**/src-renderer/**', '**/src-preload/**'],
      'src-main/core never imports Electron, the app shell or the CLI.',
    ),
  },
  {
    files: ['src-main/cli/**'],
    rules: zone(
      ['electron', 'electron/*', '**/app/**', '**/src-preload/**'],
      'The CLI runs without Electron.',
    ),
  },
  {
    files: ['src-sandbox/**'],
    rules: zone(
      ['electron', '**/src-main/**', '**/src-renderer/**', '**/src-preload/**'],
      'The sandbox stands alone: it may import src-shared only.',
    ),
  },
  {
    files: ['src-preload/**'],
    rules: zone(
      ['**/src-main/**', '**/src-renderer/**'],
      'The preload builds the bridge from src-shared/ipc only.',
    ),
  },
  {
    files: ['src-main/app/ipc-gate.ts', 'src-preload/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...zone(
        ['node:*', 'electron', 'electron/*', '**/src-main/**', '**/src-sandbox/**', '**/src-preload/**'],
        'The renderer imports src-shared types and window.postdesk only.',
      ),
    },
  },
  {
    files: ['*.config.ts', '*.config.js', '*.config.cjs', 'eslint.config.js'],
    rules: { 'no-restricted-exports': 'off' },
  },
);
