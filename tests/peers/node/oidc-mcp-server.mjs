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

const provider = new Provider(origin, {
  scopes: ['openid', 'offline_access', SCOPE],
  clients,
  features: {
    registration: { enabled: !staticId },
    devInteractions: { enabled: true },
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
  // A refresh token for every client that registered for the grant, offline_access or not.
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
});
provider.on('grant.success', (ctx) => {
  console.error(`issued ${ctx.oidc.params?.grant_type ?? 'unknown'}`);
});

const verifier = {
  async verifyAccessToken(token) {
    if (personalToken && token === personalToken) {
      return { token, clientId: 'personal', scopes: [SCOPE], expiresAt: Math.floor(Date.now() / 1000) + 3600, resource: new URL(resource) };
    }
    const found = await provider.AccessToken.find(token);
    if (!found || found.isExpired) throw new InvalidTokenError('unknown or expired token');
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
app.post(
  '/mcp',
  express.json(),
  requireBearerAuth({ verifier, requiredScopes: [SCOPE], resourceMetadataUrl: metadataUrl }),
  async (req, res) => {
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  },
);
app.get('/mcp', (req, res) => res.status(405).end());
app.delete('/mcp', (req, res) => res.status(405).end());
app.use(provider.callback());
// Express 5 hands a failed bind to this callback: it must not be announced as listening.
app.listen(port, '127.0.0.1', (error) => {
  if (error) throw error;
  console.error(`listening on ${resource}`);
});
