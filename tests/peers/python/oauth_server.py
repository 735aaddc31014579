"""Interop test peer: an MCP server guarded by the Python SDK's own OAuth 2.1
authorization server (mcp 2.3.0: its metadata, registration, authorize and token
handlers, and its bearer-token middleware), in one process.

    python oauth_server.py --port N [--token-lifetime SECONDS] [--sse]

With `--sse` the MCP server speaks the HTTP+SSE transport of 2024-11-05 (its event
stream at `/sse` is what refuses an unauthorized client) instead of Streamable HTTP.

The SDK checks PKCE, redirect URIs, client authentication and the `resource` of
each token; this file only keeps what it issues in memory and approves every
authorization at once, as a person who always consents would. Once listening it
prints `listening on http://127.0.0.1:<port>/mcp` (or `/sse`) to stderr.

Markers written to stderr so tests can observe them:
    `registered <client_id>`    a client registered (Dynamic Client Registration)
    `issued <grant_type>`       tokens issued by that grant
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
import warnings

import anyio
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from mcp.shared.exceptions import MCPDeprecationWarning

warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

SCOPE = "tools"


def marker(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class ApprovingProvider:
    """Stores clients, codes and tokens in memory; consents to every request."""

    def __init__(self, token_lifetime: int) -> None:
        self.token_lifetime = token_lifetime
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info
        marker(f"registered {client_info.client_id}")

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        code = secrets.token_urlsafe(16)
        assert client.client_id is not None
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client: OAuthClientInformationFull, authorization_code: str):
        return self.codes.get(authorization_code)

    async def exchange_authorization_code(self, client: OAuthClientInformationFull, authorization_code):
        self.codes.pop(authorization_code.code, None)
        return self.issue(client, authorization_code.scopes, authorization_code.resource, "authorization_code")

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str):
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(self, client: OAuthClientInformationFull, refresh_token, scopes: list[str]):
        self.refresh.pop(refresh_token.token, None)
        return self.issue(client, scopes or refresh_token.scopes, refresh_token.resource, "refresh_token")

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is None or (found.expires_at is not None and found.expires_at < time.time()):
            return None
        return found

    async def revoke_token(self, token) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    def issue(self, client: OAuthClientInformationFull, scopes: list[str], resource: str | None, grant: str) -> OAuthToken:
        assert client.client_id is not None
        access = secrets.token_urlsafe(24)
        refresh = secrets.token_urlsafe(24)
        expires = int(time.time()) + self.token_lifetime
        self.access[access] = AccessToken(
            token=access, client_id=client.client_id, scopes=scopes, expires_at=expires, resource=resource
        )
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client.client_id, scopes=scopes, resource=resource)
        marker(f"issued {grant}")
        return OAuthToken(
            access_token=access,
            expires_in=self.token_lifetime,
            refresh_token=refresh,
            scope=" ".join(scopes) or None,
        )


def build(port: int, token_lifetime: int, path: str) -> MCPServer:
    origin = f"http://127.0.0.1:{port}"
    server = MCPServer(
        "python-oauth-peer",
        auth_server_provider=ApprovingProvider(token_lifetime),
        auth=AuthSettings(
            issuer_url=origin,
            resource_server_url=f"{origin}{path}",
            validate_token_resource=True,
            required_scopes=[SCOPE],
            client_registration_options=ClientRegistrationOptions(
                enabled=True, valid_scopes=[SCOPE], default_scopes=[SCOPE]
            ),
            # RFC 7009: a client that signs out gives its tokens up.
            revocation_options=RevocationOptions(enabled=True),
        ),
    )

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    return server


async def serve(port: int, token_lifetime: int, sse: bool) -> None:
    import uvicorn

    path = "/sse" if sse else "/mcp"
    mcp = build(port, token_lifetime, path)
    app = mcp.sse_app() if sse else mcp.streamable_http_app()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))

    async def announce() -> None:
        while not server.started:
            await anyio.sleep(0.01)
        marker(f"listening on http://127.0.0.1:{port}{path}")

    async with anyio.create_task_group() as tg:
        tg.start_soon(announce)
        await server.serve()
        tg.cancel_scope.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True, help="the port, known before start: it is in the metadata")
    parser.add_argument("--token-lifetime", type=int, default=3600, help="seconds an access token lives")
    parser.add_argument("--sse", action="store_true", help="serve HTTP+SSE (2024-11-05) at /sse")
    args = parser.parse_args()
    anyio.run(serve, args.port, args.token_lifetime, args.sse)


if __name__ == "__main__":
    main()
