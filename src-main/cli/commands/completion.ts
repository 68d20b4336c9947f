import { Argument, type Command } from 'commander';
import { SHELLS, completionScript, type Shell } from '../completion';
import type { CliDeps } from '../context';

export function registerCompletionCommand(program: Command, deps: CliDeps): void {
  program
    .command('completion')
    .description(
      'print a completion script generated from the command tree, so it always matches this version',
    )
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      '\nbash: add `source <(postdesk completion bash)` to ~/.bashrc\n' +
        'zsh:  add `source <(postdesk completion zsh)` to ~/.zshrc, after compinit\n' +
        'fish: postdesk completion fish > ~/.config/fish/completions/postdesk.fish',
    )
    .action((shell: Shell) => {
      deps.io.stdout.write(completionScript(program, shell));
    });
}
