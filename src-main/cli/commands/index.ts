import type { Command } from 'commander';
import type { CliDeps } from '../context';

export type RegisterCommand = (program: Command, deps: CliDeps) => void;

/**
 * One top-level command: its name and one-line summary (what `postdesk --help` lists) and how to load it.
 * A command's module, and everything it imports, loads only when that command runs, so `postdesk --help` or
 * `postdesk accounts` does not pay for ffmpeg probing, bulk import or the web host.
 */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  /** The command needs every other command registered too (completion reads the whole tree). */
  readonly wantsTree?: boolean;
  load(): Promise<RegisterCommand>;
}

/**
 * Every command of `postdesk`, in help order. A new command file exports `register<Name>Command`, which
 * registers exactly one top-level command named as here; test/unit/cli/command-index.test.ts checks both.
 */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'login',
    summary: 'check an API key and keep it in the OS keychain',
    load: async () => (await import('./login')).registerLoginCommand,
  },
  {
    name: 'logout',
    summary: 'remove the API key from the OS keychain',
    load: async () => (await import('./logout')).registerLogoutCommand,
  },
  {
    name: 'status',
    summary: 'the service, where the key comes from, reachability, outbox',
    load: async () => (await import('./status')).registerStatusCommand,
  },
  {
    name: 'doctor',
    summary: 'which ffmpeg and ffprobe are used, their versions, and what to fix',
    load: async () => (await import('./doctor')).registerDoctorCommand,
  },
  {
    name: 'config',
    summary: 'show or change settings',
    load: async () => (await import('./config')).registerConfigCommand,
  },
  {
    name: 'accounts',
    summary: 'connected social accounts (their ids go into --target)',
    load: async () => (await import('./accounts')).registerAccountsCommand,
  },
  {
    name: 'posts',
    summary: 'social posts: list, show, create, update, delete',
    load: async () => (await import('./posts')).registerPostsCommand,
  },
  {
    name: 'queue',
    summary: 'weekly posting slots per account; add posts to the next free slot',
    load: async () => (await import('./queue')).registerQueueCommand,
  },
  {
    name: 'outbox',
    summary: 'posts written locally before sending',
    load: async () => (await import('./outbox')).registerOutboxCommand,
  },
  {
    name: 'articles',
    summary: 'long-form articles: list, create, publish, delete',
    load: async () => (await import('./articles')).registerArticlesCommand,
  },
  {
    name: 'analytics',
    summary: 'impressions, likes, comments and shares',
    load: async () => (await import('./analytics')).registerAnalyticsCommand,
  },
  {
    name: 'skills',
    summary: 'public instruction skills (no key needed)',
    load: async () => (await import('./skills')).registerSkillsCommand,
  },
  {
    name: 'automations',
    summary: 'scheduled agent runs',
    load: async () => (await import('./automations')).registerAutomationsCommand,
  },
  {
    name: 'inbox',
    summary: 'drafts automation runs made and AI assistants’ proposals: list, approve, reject',
    load: async () => (await import('./inbox')).registerInboxCommand,
  },
  {
    name: 'mcp',
    summary: 'an MCP server over stdio for your AI assistant, asking before it publishes',
    load: async () => (await import('./mcp')).registerMcpCommand,
  },
  {
    name: 'executor',
    summary: 'run local automations (a daemon, or one pass with --once)',
    load: async () => (await import('./executor')).registerExecutorCommand,
  },
  {
    name: 'runs',
    summary: "the executor's runs on this machine",
    load: async () => (await import('./runs')).registerRunsCommand,
  },
  {
    name: 'sandbox',
    summary: 'run the offline sandbox in the foreground',
    load: async () => (await import('./sandbox')).registerSandboxCommand,
  },
  {
    name: 'upload',
    summary: 'check, hash and upload media; prints each asset id',
    load: async () => (await import('./upload')).registerUploadCommand,
  },
  {
    name: 'media',
    summary: 'check media against the limits, convert video to MP4',
    load: async () => (await import('./media')).registerMediaCommand,
  },
  {
    name: 'bulk',
    summary: 'queue posts by the hundred from CSV or JSON',
    load: async () => (await import('./bulk')).registerBulkCommand,
  },
  {
    name: 'export',
    summary: 'posts, analytics or run history as CSV or JSON',
    load: async () => (await import('./export')).registerExportCommand,
  },
  {
    name: 'web',
    summary: 'serve the Postdesk UI to your browser on 127.0.0.1',
    load: async () => (await import('./web')).registerWebCommand,
  },
  {
    name: 'completion',
    summary: 'print a completion script for bash, zsh or fish',
    wantsTree: true,
    load: async () => (await import('./completion')).registerCompletionCommand,
  },
];
