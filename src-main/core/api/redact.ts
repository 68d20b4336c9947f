/**
 * Credential scrubbing. Every credential the client sees (API key, run token, claim token, runner key, proxy
 * password) is registered here, and every message, log line and serialized error goes through `redact()`, so a
 * secret cannot leak even when a server or a library echoes it back.
 */
export const REDACTED = '[REDACTED]';

const secrets = new Set<string>();
// Shorter values would scrub ordinary words; real credentials are long.
const MIN_SECRET_LENGTH = 6;

const SECRET_KEY =
  /^(authorization|proxy-authorization|x-service-runner-key|x-api-key|api_?key|apikey|run_token|claim_token|token|password|secret)$/i;

/** userinfo in URLs (proxy credentials): `scheme://user:password@` keeps the user, loses the password. */
const URL_CREDENTIALS: [RegExp, string] = [
  /(\b[a-z][a-z0-9+.-]*:\/\/)([^/\s:@]+):(?!\[REDACTED\]@)[^/\s@]+@/gi,
  `$1$2:${REDACTED}@`,
];

const PATTERNS: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=:-]+/gi, `$1 ${REDACTED}`],
  [/\b(x-service-runner-key|x-api-key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, `$1$2${REDACTED}`],
  [/("(?:run_token|claim_token|api_key|apiKey|password)"\s*:\s*")[^"]*(")/g, `$1${REDACTED}$2`],
  [/\b(run_token|claim_token|api_key)=([^&\s"']+)/g, `$1=${REDACTED}`],
  URL_CREDENTIALS,
];

/** Remembers a credential so that `redact()` scrubs it everywhere from now on. */
export function registerSecret(value: string | null | undefined): void {
  if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

/** Scrubs the registered secrets only: safe on user data (a caption may say "Bearer of good news"). */
export function redactSecrets(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/**
 * For text shown to people that may hold service data: the registered secrets, and the credentials of
 * any `scheme://user:password@` address, but not words that merely look like credentials.
 */
export function redactForDisplay(text: string): string {
  return redactSecrets(text).replace(URL_CREDENTIALS[0], URL_CREDENTIALS[1]);
}

/** Scrubs every registered secret and anything shaped like a credential from a message or log line. */
export function redact(text: string): string {
  let out = redactSecrets(text);
  for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
  return out;
}

/**
 * A deep copy with secret-named keys blanked and every string scrubbed. `data` mode (for printing service data)
 * removes registered secrets only; the default also removes credential-shaped text (for errors and logs).
 */
export function redactDeep<T>(value: T, mode: 'message' | 'data' = 'message', depth = 0): T {
  if (depth > 20) return value;
  if (typeof value === 'string') return (mode === 'data' ? redactSecrets(value) : redact(value)) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, mode, depth + 1)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY.test(k) && v != null ? REDACTED : redactDeep(v, mode, depth + 1);
    }
    return out as T;
  }
  return value;
}
