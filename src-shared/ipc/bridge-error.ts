import { z } from 'zod';

/**
 * Why a bridge call failed. `invalid_input`: the input did not parse; `forbidden`: the caller is not
 * our window; `not_connected`: no service connection yet; `api`: the service answered an error
 * (see `status`/`code`); `network`: the service could not be reached; `not_found`: a local id
 * (preview, plan, run) is unknown; `unavailable`: this host lacks the capability; `internal`: a bug.
 */
export const BRIDGE_ERROR_KINDS = [
  'invalid_input',
  'forbidden',
  'not_connected',
  'api',
  'network',
  'not_found',
  'unavailable',
  'internal',
] as const;
export const BridgeErrorKind = z.enum(BRIDGE_ERROR_KINDS);
export type BridgeErrorKind = z.infer<typeof BridgeErrorKind>;

export const BridgeIssue = z.object({ path: z.string(), message: z.string() });
export type BridgeIssue = z.infer<typeof BridgeIssue>;

/** What crosses the bridge when a call fails: never a stack trace, never a secret. */
export const BridgeError = z.object({
  kind: BridgeErrorKind,
  message: z.string(),
  status: z.number().int().optional(),
  code: z.string().optional(),
  issues: z.array(BridgeIssue).optional(),
});
export type BridgeError = z.infer<typeof BridgeError>;

export type BridgeOk<T> = { readonly ok: true; readonly value: T };
export type BridgeFail = { readonly ok: false; readonly error: Readonly<BridgeError> };
/** Every invoke resolves to this; it never rejects for a service or input error. */
export type BridgeResult<T> = BridgeOk<T> | BridgeFail;

export const BridgeResultSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: BridgeError }),
]);

export const ok = <T>(value: T): BridgeOk<T> => ({ ok: true, value });
export const fail = (error: BridgeError): BridgeFail => ({ ok: false, error });

/** Turns zod issues into bridge issues (`path` joined with dots; the root is ""). */
export function issuesOf(error: z.ZodError): BridgeIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}
