import { z } from 'zod';
import { invoke } from './define';
import { NoInput } from './common';

/** The `postdesk` command on the user's PATH, installed on request by the desktop app (as editors do with `code`). */
export const CommandLineState = z.object({
  /** False where it cannot be installed from here (`postdesk web`, an AppImage): `notes` says why. */
  supported: z.boolean(),
  installed: z.boolean(),
  /** The launcher's file, installed or where it would go; null where it cannot be installed. */
  location: z.string().nullable(),
  /** Sentences for a person: a folder to add to PATH, the Node.js it needs, why it is not available. */
  notes: z.array(z.string()),
});
export type CommandLineState = z.infer<typeof CommandLineState>;

/** Install and uninstall change what runs on the machine: main asks in its own dialog first. */
export const commandLine = {
  status: invoke(NoInput, CommandLineState),
  install: invoke(NoInput, CommandLineState),
  uninstall: invoke(NoInput, CommandLineState),
} as const;
