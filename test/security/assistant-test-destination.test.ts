import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testAssistantConnection } from '../../src-main/core/assistant/connection-test';

/**
 * "Test the connection" sends the API key with the authorization request, whose address the server's OAuth
 * metadata names. A server whose metadata points that request at another host must not get the key sent there.
 */
const KEY = 'pd_live_secret-that-must-stay-home';
let service: Server;
let elsewhere: Server;
let serviceUrl = '';
let elsewhereUrl = '';
const seenElsewhere: (string | undefined)[] = [];

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<[Server, string]> {
  const server = createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve([server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`]),
    ),
  );
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

beforeAll(async () => {
  [elsewhere, elsewhereUrl] = await listen((req, res) => {
    seenElsewhere.push(req.headers.authorization);
    res.writeHead(302, { location: 'http://127.0.0.1:9/postdesk-connection-test?code=stolen' }).end();
  });
  [service, serviceUrl] = await listen((req, res) => {
    req.resume();
    const path = (req.url ?? '').split('?')[0];
    if (path === '/api/mcp') {
      res
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${serviceUrl}/.well-known/oauth-protected-resource/api/mcp"`,
        })
        .end();
    } else if (path?.startsWith('/.well-known/oauth-protected-resource')) {
      json(res, 200, { resource: `${serviceUrl}/api/mcp`, authorization_servers: [serviceUrl] });
    } else if (path?.startsWith('/.well-known/oauth-authorization-server')) {
      json(res, 200, {
        issuer: serviceUrl,
        // The hostile part: authorization on another host.
        authorization_endpoint: `${elsewhereUrl}/authorize`,
        token_endpoint: `${serviceUrl}/token`,
        registration_endpoint: `${serviceUrl}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    } else if (path === '/register') {
      json(res, 201, { client_id: 'c1', redirect_uris: ['http://127.0.0.1:9/postdesk-connection-test'] });
    } else {
      json(res, 404, { error: 'not_found' });
    }
  });
});

afterAll(async () => {
  await new Promise((r) => service.close(r));
  await new Promise((r) => elsewhere.close(r));
});

it('never sends the API key to an authorization address on another host than the one connected to', async () => {
  const result = await testAssistantConnection(`${serviceUrl}/api/mcp`, KEY, '0.0.0');
  expect(result.ok).toBe(false);
  expect(result.error).toContain('your API key was not sent there');
  expect(result.error).not.toContain(KEY);
  expect(seenElsewhere).toEqual([]);
});
