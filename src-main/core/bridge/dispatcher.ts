import type { z } from 'zod';
import { fail, ok, type BridgeResult } from '../../../src-shared/ipc/bridge-error';
import { findChannel, type EventChannelName } from '../../../src-shared/ipc/contract';
import type { InvokeDef } from '../../../src-shared/ipc/define';
import { redactDeep, redactSecrets, toFieldIssue } from '../api/errors';
import { UNEXPECTED, invalidInput, issueMessageForPeople, toBridgeError } from './bridge-fault';
import type { Disposable } from '../common/events';
import { errorText } from '../common/error-text';
import { silentLogger, type Logger } from '../common/logger';
import type { BridgeEvents } from './events';
import type { Handlers } from './handler-types';

export interface BridgeDispatcher {
  /** Parses `input` with the channel's schema, runs its handler, parses the output; never throws. */
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  /** Events, already checked against their schema and scrubbed of secrets. */
  subscribe(listener: (channel: EventChannelName, payload: unknown) => void): Disposable;
}

/** A JSON member whose name says it holds a credential; none of the contract's outputs has one. */
const CREDENTIAL_MEMBER =
  /"(authorization|proxy-authorization|x-service-runner-key|x-api-key|api_?key|apikey|run_token|claim_token|token|password|secret)"\s*:/i;

/**
 * Last line of defence: every registered credential (API key, run and claim tokens) is replaced wherever it
 * hides, and credential-named members are blanked. Answers are data: a caption may say "Bearer of good news",
 * so the credential-shaped text patterns of `redact()` are for error messages only (bridge-fault.ts).
 * One pass over the JSON; the value is only rebuilt when something had to go.
 */
export function scrubSecrets<T>(value: T): T {
  if (value === undefined) return value;
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  if (redactSecrets(json) === json && !CREDENTIAL_MEMBER.test(json)) return value;
  return redactDeep(value, 'data');
}

type AnyHandler = (input: unknown) => Promise<unknown>;

export function createBridgeDispatcher(
  handlers: Handlers,
  events: BridgeEvents,
  /** Where a failure nobody expected is written: the page gets a sentence, the log gets what happened. */
  log: Logger = silentLogger,
): BridgeDispatcher {
  const table = handlers as unknown as Record<string, Record<string, AnyHandler | undefined>>;
  return {
    async invoke(channel, input) {
      const entry = findChannel(channel);
      if (!entry || entry.def.kind !== 'invoke') {
        return fail({
          kind: 'invalid_input',
          message: 'This window asked Postdesk for something it does not do.',
        });
      }
      const def = entry.def as InvokeDef;
      const parsed = def.input.safeParse(input);
      if (!parsed.success) {
        // Paths stay (a form marks its field by them); the words are a person's, not zod's.
        const issues = (parsed.error as z.ZodError).issues.map((i) => {
          const fi = toFieldIssue(i);
          return { path: fi.path, message: issueMessageForPeople(fi.message) };
        });
        return fail({ kind: 'invalid_input', message: invalidInput(issues), issues });
      }
      const handler = table[entry.domain]?.[entry.verb];
      if (!handler) return fail({ kind: 'unavailable', message: 'This is not available here.' });
      try {
        const out = await handler(parsed.data);
        const checked = def.output.safeParse(out);
        if (!checked.success) {
          return fail({ kind: 'internal', message: UNEXPECTED });
        }
        return ok(scrubSecrets(checked.data));
      } catch (e) {
        const error = toBridgeError(e);
        if (error.kind === 'internal') log.error(`${entry.name} failed`, { error: errorText(e) });
        return fail(error);
      }
    },
    subscribe(listener) {
      return events.subscribe((channel, payload) => {
        const entry = findChannel(channel);
        if (!entry || entry.def.kind !== 'event') return false;
        const checked = entry.def.payload.safeParse(payload);
        if (!checked.success) return false; // a malformed event is dropped rather than sent half-typed
        return listener(channel, scrubSecrets(checked.data));
      });
    },
  };
}
