import type { FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';

/**
 * A tool of the MCP server answers by calling the sandbox's own REST route in-process (mcp/server.ts). This
 * header marks such a call: faults are decided once, for the `/api/mcp` request, and the caller was
 * authenticated there. Its value is random per process, so no client can send it.
 */
export const INNER_CALL_HEADER = 'x-sandbox-mcp-inner';
export const innerCallToken = randomBytes(16).toString('hex');

/** True for a tool's call to a REST route inside an `/api/mcp` request. */
export const isInnerMcpCall = (req: FastifyRequest): boolean =>
  req.headers[INNER_CALL_HEADER] === innerCallToken;

/** Who an inner call acts for: the `/api/mcp` caller, as its credential was checked there. */
export interface InnerCaller {
  ownerId: string;
  keyId: string;
}

/**
 * The callers of the `/api/mcp` requests in flight, by the one-off bearer their tools' inner calls carry. An
 * OAuth access token is refused by every REST route, so the inner calls of an OAuth caller cannot carry it;
 * they carry this instead, valid only with the inner-call header and only while its request runs.
 */
const innerCallers = new Map<string, InnerCaller>();

/** Registers the caller of one `/api/mcp` request; returns its inner bearer and the function that ends it. */
export function openInnerCaller(caller: InnerCaller): { bearer: string; close(): void } {
  const bearer = `inner_${randomBytes(24).toString('base64url')}`;
  innerCallers.set(bearer, caller);
  return { bearer, close: () => void innerCallers.delete(bearer) };
}

/** The caller behind an inner call's bearer, or null. */
export const innerCallerOf = (req: FastifyRequest, bearer: string): InnerCaller | null =>
  isInnerMcpCall(req) ? (innerCallers.get(bearer) ?? null) : null;
