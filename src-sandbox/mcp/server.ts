import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPERATIONS } from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { SandboxError } from '../errors';
import { INNER_CALL_HEADER, innerCallToken, openInnerCaller } from '../inner-call';
import { requireMcpCaller } from '../oauth/bearer';
import { MCP_PATH } from '../oauth/urls';
import { AUTOMATION_TOOL_SPECS, runOwnerTool } from './automation-tools';
import type { ToolSpec } from './tools';
import { TOOLS, inputSchemaOf } from './tools';

const SERVER_INFO = { name: 'postdesk-sandbox', version: '1.0.0' };

/** Splits tool arguments into the request: path id, then query string (GET) or JSON body. */
function requestOf(
  spec: ToolSpec,
  args: Readonly<Record<string, unknown>>,
): { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: Record<string, unknown> } {
  const op = OPERATIONS[spec.operation];
  const rest: Record<string, unknown> = { ...args };
  let path: string = op.path;
  if (spec.pathArg !== undefined) {
    path = path.replace(`{${spec.pathArg}}`, encodeURIComponent(String(rest[spec.pathArg])));
    delete rest[spec.pathArg];
  }
  if (op.method === 'GET') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) {
      if (value !== undefined && value !== null) query.set(key, String(value));
    }
    const qs = query.toString();
    return { method: op.method, url: qs === '' ? path : `${path}?${qs}` };
  }
  return { method: op.method, url: path, payload: rest };
}

/**
 * A server for one request (stateless mode). Each REST-backed tool calls the sandbox's own route through
 * `app.inject` as the caller (with the request's inner bearer, inner-call.ts, since an OAuth token is good at
 * /api/mcp only), so tools and REST share every rule; the automation tools call the automation service as
 * the caller's owner.
 */
function buildServer(
  app: FastifyInstance,
  ctx: SandboxContext,
  caller: { innerBearer: string; ownerId: string },
): McpServer {
  const server = new McpServer(SERVER_INFO);
  for (const spec of TOOLS) {
    server.registerTool(
      spec.name,
      { description: spec.description, inputSchema: inputSchemaOf(spec) },
      async (args: unknown): Promise<CallToolResult> => {
        const request = requestOf(spec, (args ?? {}) as Record<string, unknown>);
        const res = await app.inject({
          method: request.method,
          url: request.url,
          headers: {
            authorization: `Bearer ${caller.innerBearer}`,
            [INNER_CALL_HEADER]: innerCallToken,
            ...(request.payload ? { 'content-type': 'application/json' } : {}),
          },
          ...(request.payload ? { payload: JSON.stringify(request.payload) } : {}),
        });
        const text = res.body === '' ? JSON.stringify({ status: res.statusCode }) : res.body;
        return { content: [{ type: 'text', text }], isError: res.statusCode >= 400 };
      },
    );
  }
  for (const spec of AUTOMATION_TOOL_SPECS) {
    server.registerTool(
      spec.name,
      { description: spec.description, inputSchema: spec.input },
      async (args: unknown): Promise<CallToolResult> => runOwnerTool(spec, ctx, caller.ownerId, args),
    );
  }
  return server;
}

/** The Fastify request as the web-standard Request the SDK transport reads (the body is already parsed). */
function webRequest(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? 'sandbox'}${req.url}`, { method: req.method, headers });
}

/**
 * The MCP answer goes out through Fastify's reply like any route's, so the reply hooks, and with them the
 * injected `latency_ms` and `reset_rate`, apply to `/api/mcp` too.
 */
async function sendResponse(reply: FastifyReply, res: Response): Promise<FastifyReply> {
  reply.code(res.status);
  res.headers.forEach((value, name) => {
    if (name !== 'content-length') void reply.header(name, value);
  });
  return reply.send(res.body === null ? undefined : await res.text());
}

/**
 * The MCP server at /api/mcp: streamable HTTP in stateless mode with JSON responses. The bearer is an OAuth
 * access token for this resource or an API key (oauth/bearer.ts). GET and DELETE answer 405: without
 * sessions there is no stream to open or close.
 */
export function registerMcp(app: FastifyInstance, ctx: SandboxContext): void {
  app.post(MCP_PATH, async (req, reply) => {
    const owner = requireMcpCaller(req, reply, ctx);
    const inner = openInnerCaller(owner);
    const server = buildServer(app, ctx, { innerBearer: inner.bearer, ownerId: owner.ownerId });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const res = await transport.handleRequest(webRequest(req), { parsedBody: req.body });
      return await sendResponse(reply, res);
    } finally {
      inner.close();
      await transport.close();
      await server.close();
    }
  });

  const notAllowed = async (): Promise<never> => {
    throw new SandboxError(
      405,
      'METHOD_NOT_ALLOWED',
      'the sandbox MCP server is stateless: POST JSON-RPC messages',
    );
  };
  app.get(MCP_PATH, async (req, reply) => {
    requireMcpCaller(req, reply, ctx);
    reply.header('allow', 'POST');
    return notAllowed();
  });
  app.delete(MCP_PATH, async (req, reply) => {
    requireMcpCaller(req, reply, ctx);
    reply.header('allow', 'POST');
    return notAllowed();
  });
}
