import type { Command } from 'commander';

/** A group of subcommands: `postdesk posts …`. */
export function commandGroup(program: Command, name: string, about: string): Command {
  return program.command(name).description(about);
}

/**
 * The group's default subcommand, which its bare name runs too: `postdesk posts` lists as `postdesk posts list`
 * does, and `postdesk config` shows.
 */
export function defaultCommand(group: Command, name: string, about: string): Command {
  return group.command(name, { isDefault: true }).description(about);
}
