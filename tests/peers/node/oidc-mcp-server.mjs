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
import express from 'express';
import Provider from 'oidc-provider';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { z } from 'zod';

const port = Number(process.argv[2]);
const tokenSeconds = Number(process.argv[3] ?? 3600);
const origin = `http://127.0.0.1:${port}`;
const resource = `${origin}/mcp`;
const SCOPE = 'tools';

const provider = new Provider(origin, {
  scopes: ['openid', 'offline_access', SCOPE],
  features: {
    registration: { enabled: true },
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
app.listen(port, '127.0.0.1', () => console.error(`listening on ${resource}`));
