import type { Command } from 'commander';
import type { CliDeps } from '../context';
import { registerLoginCommand } from './login';
import { registerLogoutCommand } from './logout';
import { registerStatusCommand } from './status';
import { registerConfigCommand } from './config';
import { registerAccountsCommand } from './accounts';
import { registerPostsCommand } from './posts';
import { registerOutboxCommand } from './outbox';
import { registerArticlesCommand } from './articles';
import { registerAnalyticsCommand } from './analytics';
import { registerSkillsCommand } from './skills';
import { registerAutomationsCommand } from './automations';
import { registerSandboxCommand } from './sandbox';
import { registerWebCommand } from './web';
import { registerExecutorCommand } from './executor';
import { registerRunsCommand } from './runs';
import { registerUploadCommand } from './upload';
import { registerMediaCommand } from './media';
import { registerBulkCommand } from './bulk';

export type RegisterCommand = (program: Command, deps: CliDeps) => void;

/** Every command of `postdesk`, in help order. A new command file exports `register<Name>Command` and is listed here. */
export const COMMANDS: readonly RegisterCommand[] = [
  registerLoginCommand,
  registerLogoutCommand,
  registerStatusCommand,
  registerConfigCommand,
  registerAccountsCommand,
  registerPostsCommand,
  registerOutboxCommand,
  registerArticlesCommand,
  registerAnalyticsCommand,
  registerSkillsCommand,
  registerAutomationsCommand,
  registerExecutorCommand,
  registerRunsCommand,
  registerSandboxCommand,
  registerUploadCommand,
  registerMediaCommand,
  registerBulkCommand,
  registerWebCommand,
];
