import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  OPERATIONS,
  type Credential,
  type OperationName,
  type ResponseOf,
} from '../src-shared/api/operations';
import { requireApiKey } from './auth';
import { requireRunToken, requireRunTokenOrApiKey, type Caller } from './agent/credentials';
import type { SandboxContext } from './context';
import { JsonText } from './json-text';

export type OperationRequest = FastifyRequest<{ Params: { readonly id: string } }>;
type CallerOf<C extends Credential> = C extends 'none' ? null : Caller;

const runIdOf = (req: OperationRequest): string | null => req.params.id ?? null;

/** The caller an operation's credential admits, or the 401/403 its absence answers. */
function authenticate(ctx: SandboxContext, req: OperationRequest, name: OperationName): Caller | null {
  const op = OPERATIONS[name];
  switch (op.credential) {
    case 'none':
      return null;
    case 'apiKey': {
      const scope = 'scope' in op ? op.scope : undefined;
      const key = requireApiKey(req, ctx, scope ? { scope } : {});
      return { kind: 'apiKey', ownerId: key.ownerId, keyId: key.keyId };
    }
    case 'runToken':
      return requireRunToken(ctx, req, req.params.id);
    // The `+executor` part (the executor_id an API key must send) is the operation's own check.
    case 'runTokenOrApiKey':
    case 'runTokenOrApiKey+executor':
      return requireRunTokenOrApiKey(ctx, req, runIdOf(req));
  }
}

/**
 * Serves one operation of the contract's table (src-shared/api/operations.ts): its method, path, success
 * status and credential come from there, so the sandbox cannot answer on another path, with another
 * status or to another caller than the client expects. The handler gets the authenticated caller and
 * answers with the operation's response type (or its JSON text, JsonText); a handler that sends its own
 * body (a download) returns the reply.
 */
export function serve<N extends OperationName>(
  app: FastifyInstance,
  ctx: SandboxContext,
  name: N,
  handler: (
    req: OperationRequest,
    caller: CallerOf<(typeof OPERATIONS)[N]['credential']>,
    reply: FastifyReply,
  ) => ResponseOf<N> | JsonText<ResponseOf<N>> | FastifyReply | Promise<ResponseOf<N> | FastifyReply>,
): void {
  const op = OPERATIONS[name];
  app.route({
    method: op.method,
    url: op.path.replace(/\{(\w+)\}/g, ':$1'),
    // Not async: most handlers answer at once, and a promise per request is work they do not need.
    handler: (req: OperationRequest, reply) => {
      const caller = authenticate(ctx, req, name) as CallerOf<(typeof OPERATIONS)[N]['credential']>;
      const answer = handler(req, caller, reply);
      const send = (a: ResponseOf<N> | JsonText<ResponseOf<N>> | FastifyReply): FastifyReply => {
        if (a === reply) return reply;
        if (a instanceof JsonText) {
          return reply.code(op.status).type('application/json; charset=utf-8').send(a.text);
        }
        return reply.code(op.status).send(a);
      };
      if (answer instanceof Promise) return answer.then(send);
      send(answer);
      return undefined;
    },
  });
}
