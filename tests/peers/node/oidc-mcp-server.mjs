// An MCP server (the TypeScript SDK's, with its bearer-token middleware) whose
// authorization server is `oidc-provider`, a certified OpenID Provider, in one process:
//
//     node oidc-mcp-server.mjs PORT [ACCESS_TOKEN_SECONDS]
//
// The provider registers clients dynamically, requires PKCE, binds each access token to
// the MCP server with Resource Indicators, and shows its own login and consent pages
// (follow-consent.mjs plays the person). Once listening it prints
// `listening on http://127.0.0.1:PORT/mcp` on stderr; every grant it answers prints
// `issued <grant_type>`.
//
// With `OIDC_STATIC_CLIENT=ID:SECRET` in the environment the provider knows one client,
// registered beforehand as a native app with a loopback redirect, and registers no other
// (no dynamic registration). With `OIDC_PERSONAL_TOKEN=TOKEN` the MCP server also takes
// that token, as a service would a personal access token made on its website.
// `OIDC_ACCESS_TOKEN_SECONDS` is the access tokens' lifetime, as the second argument is.
//
// For the grants a client makes on its own: `OIDC_MACHINE_CLIENT=ID:SECRET` registers a
// client for the client credentials grant authenticating with its secret, and
// `OIDC_KEY_CLIENT=ID` with `OIDC_KEY_CLIENT_PEM=FILE` one authenticating with a JWT signed
// by the private key in FILE (`private_key_jwt`; the provider knows its public half). With
// `OIDC_DPOP=1` the provider binds tokens to the key of a DPoP proof (RFC 9449), and the MCP
// server takes a bound token only with a valid proof of that key (printing
// `presented DPoP` for each), never as a bearer token.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import express from 'express';
import Provider from 'oidc-provider';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { z } from 'zod';

const port = Number(process.argv[2]);
const tokenSeconds = Number(process.argv[3] ?? process.env.OIDC_ACCESS_TOKEN_SECONDS ?? 3600);
const origin = `http://127.0.0.1:${port}`;
const resource = `${origin}/mcp`;
const SCOPE = 'tools';
const [staticId, staticSecret] = (process.env.OIDC_STATIC_CLIENT ?? '').split(':');
const personalToken = process.env.OIDC_PERSONAL_TOKEN;
const clients = staticId
  ? [{
      client_id: staticId,
      client_secret: staticSecret,
      application_type: 'native',
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
    }]
  : [];
const machine = { grant_types: ['client_credentials'], redirect_uris: [], response_types: [], scope: SCOPE };
const [machineId, machineSecret] = (process.env.OIDC_MACHINE_CLIENT ?? '').split(':');
if (machineId) {
  clients.push({ ...machine, client_id: machineId, client_secret: machineSecret, token_endpoint_auth_method: 'client_secret_basic' });
}
const keyClient = process.env.OIDC_KEY_CLIENT;
if (keyClient) {
  const jwk = createPublicKey(readFileSync(process.env.OIDC_KEY_CLIENT_PEM, 'utf8')).export({ format: 'jwk' });
  clients.push({
    ...machine,
    client_id: keyClient,
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_signing_alg: 'ES256',
    jwks: { keys: [{ ...jwk, alg: 'ES256', use: 'sig' }] },
  });
}
const dpop = process.env.OIDC_DPOP === '1';

const provider = new Provider(origin, {
  scopes: ['openid', 'offline_access', SCOPE],
  clients,
  features: {
    registration: { enabled: !staticId && !machineId && !keyClient },
    devInteractions: { enabled: true },
    clientCredentials: { enabled: Boolean(machineId || keyClient) },
    dPoP: { enabled: dpop },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, indicator) => {
        if (indicator !== resource) throw new Error(`unknown resource ${indicator}`);
        return { scope: SCOPE, audience: resource, accessTokenTTL: tokenSeconds, accessTokenFormat: 'opaque' };
      },
    },
  },
  pkce: { required: () => true },
  ttl: { ClientCredentials: () => tokenSeconds },
  // A refresh token for every client that registered for the grant, offline_access or not.
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
});
provider.on('grant.success', (ctx) => {
  console.error(`issued ${ctx.oidc.params?.grant_type ?? 'unknown'}`);
});

// A token the provider issued: to a person (authorization code) or to a client of its own.
const findToken = async (token) => (await provider.AccessToken.find(token)) ?? (await provider.ClientCredentials.find(token));

const verifier = {
  async verifyAccessToken(token) {
    if (personalToken && token === personalToken) {
      return { token, clientId: 'personal', scopes: [SCOPE], expiresAt: Math.floor(Date.now() / 1000) + 3600, resource: new URL(resource) };
    }
    const found = await findToken(token);
    if (!found || found.isExpired) throw new InvalidTokenError('unknown or expired token');
    if (found.jkt) throw new InvalidTokenError('a token bound to a key is presented with a proof of it');
    return {
      token,
      clientId: found.clientId,
      scopes: (found.scope ?? '').split(' ').filter(Boolean),
      expiresAt: found.exp,
      resource: new URL(found.aud),
    };
  },
};

function mcpServer() {
  const server = new McpServer({ name: 'oidc-peer', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

const app = express();
const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
app.get('/.well-known/oauth-protected-resource/mcp', (req, res) => {
  res.json({ resource, authorization_servers: [origin], scopes_supported: [SCOPE] });
});
async function serve(req, res) {
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => { transport.close(); server.close(); });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

// A DPoP-bound token with its proof (RFC 9449 §7.1): the proof signed by the key its
// header names, for this request, over this token, by the key the token is bound to.
const b64url = (bytes) => Buffer.from(bytes).toString('base64url');
async function proven(req, res, next) {
  const authorization = req.headers.authorization ?? '';
  if (!authorization.startsWith('DPoP ')) return next();
  const token = authorization.slice(5);
  const refuse = (why) => {
    console.error(`refused DPoP: ${why}`);
    res.status(401).set('WWW-Authenticate', `DPoP error="invalid_token", resource_metadata="${metadataUrl}"`).json({ error: 'invalid_token', error_description: why });
  };
  try {
    const [head, body, signature] = String(req.headers.dpop ?? '').split('.');
    const header = JSON.parse(Buffer.from(head, 'base64url'));
    const claims = JSON.parse(Buffer.from(body, 'base64url'));
    if (header.typ !== 'dpop+jwt' || header.alg !== 'ES256' || header.jwk?.d) return refuse('not a DPoP proof');
    const key = createPublicKey({ key: header.jwk, format: 'jwk' });
    const signed = verify('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
    if (!signed) return refuse('the proof is not signed by its key');
    if (claims.htm !== req.method || claims.htu !== resource) return refuse('the proof is for another request');
    if (claims.ath !== b64url(createHash('sha256').update(token).digest())) return refuse('the proof is for another token');
    const { crv, kty, x, y } = header.jwk;
    const thumbprint = b64url(createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest());
    const found = await findToken(token);
    if (!found || found.isExpired) return refuse('unknown or expired token');
    if (found.jkt !== thumbprint) return refuse('the token is bound to another key');
    console.error('presented DPoP');
    return serve(req, res);
  } catch (error) {
    return refuse(`an unreadable proof: ${error.message}`);
  }
}

app.post('/mcp', express.json(), proven, requireBearerAuth({ verifier, requiredScopes: [SCOPE], resourceMetadataUrl: metadataUrl }), serve);
app.get('/mcp', (req, res) => res.status(405).end());
app.delete('/mcp', (req, res) => res.status(405).end());
app.use(provider.callback());
// Express 5 hands a failed bind to this callback: it must not be announced as listening.
app.listen(port, '127.0.0.1', (error) => {
  if (error) throw error;
  console.error(`listening on ${resource}`);
});
