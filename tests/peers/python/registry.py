"""Test peer: a stand-in for the MCP Registry (registry.modelcontextprotocol.io) on
127.0.0.1, speaking its `/v0.1` API over a few server entries like those it lists: an npm
package with environment variables (one of them secret), a PyPI package, an OCI image, and
remote servers (streamable HTTP with a header the person supplies, SSE with a URL variable).

    python registry.py --port N --report FILE [--page-size K] [--broken] [--remote-url URL]

Every request it reads and every answer it gives is checked against the registry's
published OpenAPI document (tests/peers/registry/openapi.yaml) by openapi-core, operation
by operation (path, method, parameters, status, content type, body schema). A request or an
answer that does not conform is answered with status 599, which no client takes for an
answer. Each verdict is added to the report file before the answer is sent, one a line:
`valid <method> <path>` or `INVALID <what>: <why>`.

The streamable HTTP remote it lists is at `--remote-url` (a real MCP server a test started),
else at its own `/tickets/mcp`, where nothing answers: paths outside `/v0.1/` are no part of
the registry's API and are answered 404 unchecked.

With `--broken`, every list is answered with a body the document does not allow (a server
without its name, its version a number), sent as it is: the client under test must say so
and keep what it had.

Once listening it prints `listening on http://127.0.0.1:<port>` to stderr.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import threading
from pathlib import Path
from urllib.parse import unquote

from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

DOCUMENT = Path(__file__).resolve().parent.parent / "registry" / "openapi.yaml"
OFFICIAL = "io.modelcontextprotocol.registry/official"


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Report:
    def __init__(self, path: str) -> None:
        self.path = path
        self.lock = threading.Lock()

    def add(self, verdict: str) -> None:
        with self.lock, open(self.path, "a", encoding="utf-8") as report:
            report.write(verdict.replace("\n", " ") + "\n")


def entries(remote_url: str) -> list[dict]:
    """The servers listed, each in its latest version (and one older version)."""

    def listed(server: dict, latest: bool = True) -> dict:
        return {
            "server": {"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json", **server},
            "_meta": {
                OFFICIAL: {
                    "status": "active",
                    "publishedAt": "2025-11-03T09:12:44.120Z",
                    "updatedAt": "2025-11-20T16:02:10.517Z",
                    "isLatest": latest,
                }
            },
        }

    weather = {
        "name": "io.github.acme-labs/weather",
        "title": "Weather",
        "description": "Forecasts and current conditions from the Acme weather service",
        "repository": {"url": "https://github.com/acme-labs/weather-mcp", "source": "github"},
        "version": "1.4.2",
        "packages": [
            {
                "registryType": "npm",
                "registryBaseUrl": "https://registry.npmjs.org",
                "identifier": "@acme-labs/weather-mcp",
                "version": "1.4.2",
                "transport": {"type": "stdio"},
                "packageArguments": [
                    {"type": "named", "name": "--units", "description": "Units of measure",
                     "default": "metric", "choices": ["metric", "imperial"]},
                ],
                "environmentVariables": [
                    {"name": "WEATHER_API_KEY", "description": "Your Acme weather API key",
                     "isRequired": True, "isSecret": True},
                    {"name": "WEATHER_REGION", "description": "Region the forecasts are for",
                     "default": "eu-west"},
                ],
            }
        ],
    }
    return [
        listed({**weather, "version": "1.3.0", "packages": [{**weather["packages"][0], "version": "1.3.0"}]}, latest=False),
        listed(weather),
        listed({
            "name": "io.github.pyfolk/sqlite-explorer",
            "title": "SQLite Explorer",
            "description": "Read-only queries over a SQLite database file",
            "version": "0.9.1",
            "packages": [{
                "registryType": "pypi",
                "registryBaseUrl": "https://pypi.org",
                "identifier": "sqlite-explorer-mcp",
                "version": "0.9.1",
                "runtimeHint": "uvx",
                "transport": {"type": "stdio"},
                "packageArguments": [
                    {"type": "positional", "valueHint": "database", "format": "filepath",
                     "description": "The database file", "isRequired": True},
                ],
            }],
        }),
        listed({
            "name": "io.github.containers-co/postgres",
            "description": "Postgres schemas and read-only queries, from a container",
            "version": "2.0.0",
            "packages": [{
                "registryType": "oci",
                "identifier": "ghcr.io/containers-co/postgres-mcp:2.0.0",
                "transport": {"type": "stdio"},
                "environmentVariables": [
                    {"name": "DATABASE_URL", "description": "postgres:// URL of the database",
                     "isRequired": True, "isSecret": True},
                ],
            }],
        }),
        listed({
            "name": "com.example/tickets",
            "title": "Tickets",
            "description": "Search and update the tickets of your help desk",
            "version": "3.1.0",
            "websiteUrl": "https://tickets.example.com/mcp",
            "remotes": [{
                "type": "streamable-http",
                "url": remote_url,
                "headers": [
                    {"name": "Authorization", "description": "Your help desk API token",
                     "value": "Bearer {token}", "isRequired": True,
                     "variables": {"token": {"description": "API token", "isRequired": True, "isSecret": True}}},
                    {"name": "X-Desk", "description": "Which help desk", "default": "support"},
                ],
            }],
        }),
        listed({
            "name": "com.example/status-feed",
            "description": "Live status of a tenant's services",
            "version": "1.0.0",
            "remotes": [{
                "type": "sse",
                "url": "https://{tenant}.status.example.com/sse",
                "variables": {"tenant": {"description": "Your tenant", "isRequired": True}},
            }],
        }),
    ]


def broken() -> dict:
    return {"servers": [{"server": {"description": "no name", "version": 2}}], "metadata": {"count": 1}}


class Registry:
    def __init__(self, remote_url: str, page_size: int, is_broken: bool, report: Report) -> None:
        self.report = report
        self.entries = entries(remote_url)
        self.page_size = page_size
        self.broken = is_broken
        # The document as published has a top-level `$id`, which the OpenAPI 3.1 meta-schema
        # does not allow: it is read without that check, its operations and schemas as they are.
        self.openapi = OpenAPI.from_file_path(str(DOCUMENT), config=Config(spec_validator_cls=None))

    def __call__(self, environ, start_response):
        # A server's name travels URL-encoded (`com.example%2Fserver`): the path is matched
        # as it was sent, not as WSGI decodes it.
        raw = environ.get("RAW_URI", environ["PATH_INFO"]).split("?", 1)[0]
        request = Request({**environ, "PATH_INFO": raw})
        if not raw.startswith("/v0.1/"):
            self.report.add(f"outside the API {request.method} {raw}")
            return Response("not found", status=404)(environ, start_response)
        try:
            self.openapi.validate_request(WerkzeugOpenAPIRequest(request))
        except Exception as e:  # openapi-core raises one of many kinds; each is reported
            self.report.add(f"INVALID request {request.full_path}: {e}")
            return Response("invalid request", status=599)(environ, start_response)
        status, body = self.answer(request)
        response = Response(json.dumps(body), status=status, mimetype="application/json")
        if self.broken and status == 200:
            self.report.add(f"sent broken {request.method} {request.full_path}")
            return response(environ, start_response)
        try:
            self.openapi.validate_response(WerkzeugOpenAPIRequest(request), WerkzeugOpenAPIResponse(response))
        except Exception as e:
            self.report.add(f"INVALID answer to {request.full_path}: {e}")
            return Response("invalid answer", status=599)(environ, start_response)
        self.report.add(f"valid {request.method} {request.full_path}")
        return response(environ, start_response)

    def answer(self, request: Request) -> tuple[int, dict]:
        path = request.path  # still encoded: split before decoding the name
        if path == "/v0.1/servers":
            return 200, broken() if self.broken else self.page(request.args)
        prefix = "/v0.1/servers/"
        if path.startswith(prefix) and "/versions/" in path:
            name, version = path[len(prefix):].split("/versions/", 1)
            name, version = unquote(name), unquote(version)
            for entry in self.entries:
                server = entry["server"]
                latest = entry["_meta"][OFFICIAL]["isLatest"]
                if server["name"] == name and (server["version"] == version or (version == "latest" and latest)):
                    return 200, entry
            return 404, {"error": "Server not found"}
        return 404, {"error": "Not found"}

    def page(self, args) -> dict:
        chosen = [
            e for e in self.entries
            if args.get("search", "").lower() in e["server"]["name"].lower()
            and (args.get("version") != "latest" or e["_meta"][OFFICIAL]["isLatest"])
        ]
        start = int(args.get("cursor") or 0)
        size = min(int(args.get("limit") or self.page_size), self.page_size)
        page = chosen[start:start + size]
        metadata: dict = {"count": len(page)}
        if start + size < len(chosen):
            metadata["nextCursor"] = str(start + size)
        return {"servers": page, "metadata": metadata}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--page-size", type=int, default=30)
    parser.add_argument("--broken", action="store_true")
    parser.add_argument("--report", required=True)
    parser.add_argument("--remote-url")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    origin = f"http://127.0.0.1:{args.port}"
    server = make_server("127.0.0.1", args.port, Registry(args.remote_url or f"{origin}/tickets/mcp", args.page_size, args.broken, Report(args.report)), threaded=True)
    say(f"listening on {origin}")
    server.serve_forever()


if __name__ == "__main__":
    main()
