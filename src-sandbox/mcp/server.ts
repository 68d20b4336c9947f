import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { OPERATIONS } from '../../src-shared/api';
import { requireApiKey } from '../auth';
import type { SandboxContext } from '../context';
import { SandboxError } from '../errors';
import type { ToolSpec } from './tools';
import { TOOLS, inputSchemaOf } from './tools';

export const MCP_PATH = '/api/mcp';
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
 * A server for one request (stateless mode). Each tool calls the sandbox's own route through
 * `app.inject` with the caller's Authorization header, so tools and REST share every rule.
 */
function buildServer(app: FastifyInstance, authorization: string): McpServer {
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
          headers: { authorization, ...(request.payload ? { 'content-type': 'application/json' } : {}) },
          ...(request.payload ? { payload: JSON.stringify(request.payload) } : {}),
        });
        const text = res.body === '' ? JSON.stringify({ status: res.statusCode }) : res.body;
        return { content: [{ type: 'text', text }], isError: res.statusCode >= 400 };
      },
    );
  }
  return server;
}

/**
 * The MCP server at /api/mcp: streamable HTTP in stateless mode with JSON responses. The bearer is an
 * API key (the hosted service uses OAuth; the sandbox does not emulate it). GET and DELETE answer 405:
 * without sessions there is no stream to open or close.
 */
export function registerMcp(app: FastifyInstance, ctx: SandboxContext): void {
  app.post(MCP_PATH, async (req, reply) => {
    try {
      requireApiKey(req, ctx);
    } catch (err) {
      reply.header('www-authenticate', 'Bearer realm="postdesk-sandbox", error="invalid_token"');
      throw err;
    }
    const server = buildServer(app, req.headers.authorization ?? '');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });

  const notAllowed = async (): Promise<never> => {
    throw new SandboxError(
      405,
      'METHOD_NOT_ALLOWED',
      'the sandbox MCP server is stateless: POST JSON-RPC messages',
    );
  };
  app.get(MCP_PATH, async (req, reply) => {
    requireApiKey(req, ctx);
    reply.header('allow', 'POST');
    return notAllowed();
  });
  app.delete(MCP_PATH, async (req, reply) => {
    requireApiKey(req, ctx);
    reply.header('allow', 'POST');
    return notAllowed();
  });
}
