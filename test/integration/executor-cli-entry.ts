/**
 * `postdesk` for the executor's tests, run as a child process: the real CLI (src-main/cli/main.ts) with
 * the `executor` and `runs` commands registered even before commands/index.ts lists them.
 */
import { registerExecutorCommand } from '../../src-main/cli/commands/executor';
import { COMMANDS, type RegisterCommand } from '../../src-main/cli/commands/index';
import { registerRunsCommand } from '../../src-main/cli/commands/runs';

const list = COMMANDS as RegisterCommand[];
for (const register of [registerExecutorCommand, registerRunsCommand]) {
  if (!list.includes(register)) list.push(register);
}
await import('../../src-main/cli/main');
