import { createInterface } from 'node:readline/promises';
import { safeLine } from '../../../src-shared/safe-text';
import type { ConfirmPort } from '../../core/bridge/confirm';

/**
 * `postdesk web`'s way to ask the user about a change the page wants to what Postdesk runs or publishes:
 * in the terminal that launched it, which the page cannot see or type into. Without a terminal to ask in,
 * such changes are refused and made with `postdesk config set` instead.
 */

/** Said to the page when this host has no terminal to ask in. */
export const NO_TERMINAL =
  'The programs and folders Postdesk uses can be changed only from the terminal that started it, and it ' +
  'cannot ask you there. Make the change in that terminal, or start Postdesk from a terminal to confirm it there.';

const REFUSED = 'The change was refused in the terminal that started Postdesk.';
const TIMED_OUT = 'Nobody confirmed the change in the terminal that started Postdesk in time.';

export interface TerminalIo {
  readonly input: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly output: NodeJS.WritableStream;
}

/**
 * A yes must be typed: Enter alone (or anything else) declines. Each line of the change is one terminal line
 * whatever it holds: the values in it come quoted (core/bridge/confirm.ts), and the line passes the text door
 * again here, so nothing in it can move the cursor, erase or retitle the question (src-shared/safe-text.ts).
 */
export function terminalConfirm(io: TerminalIo, o: { readonly timeoutMs?: number } = {}): ConfirmPort {
  const timeoutMs = o.timeoutMs ?? 120_000;
  return {
    async confirm(change) {
      io.output.write(
        `\nThe Postdesk page asks to make this change:\n${change.lines.map((l) => `  ${safeLine(l)}`).join('\n')}\n`,
      );
      const rl = createInterface({ input: io.input, output: io.output, terminal: false });
      try {
        const answer = await rl.question('Allow it? Type "yes" to allow, anything else refuses: ', {
          signal: AbortSignal.timeout(timeoutMs),
        });
        const yes = /^\s*y(es)?\s*$/i.test(answer);
        io.output.write(yes ? 'Allowed.\n' : 'Refused.\n');
        return yes ? { confirmed: true } : { confirmed: false, reason: REFUSED };
      } catch {
        io.output.write('\nNo answer: refused.\n');
        return { confirmed: false, reason: TIMED_OUT };
      } finally {
        rl.close();
      }
    },
  };
}
