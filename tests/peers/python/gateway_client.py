"""An agent on the official Python SDK client (mcp 2.3.0), for the tests of Switchboard's
Streamable HTTP server (crates/mcp/tests/http_server.rs). It walks one scenario and prints one
JSON line, as tests/peers/node/gateway-client.mjs does:

    python gateway_client.py URL TOKEN
        {"client", "unauthorized", "forbidden", "tools", "echo", "logs", "progress", "cancelled",
         "elicited", "whoami"}
"""

from __future__ import annotations

import json
import sys
from contextlib import asynccontextmanager
from importlib.metadata import version
from typing import Any

import anyio
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


@asynccontextmanager
async def connect(url: str, headers: dict[str, str], logs: list[Any]):
    async def elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"answer": f"yes to {params.message}"})

    async def log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params.data)

    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write, elicitation_callback=elicit, logging_callback=log) as client:
                await client.initialize()
                yield client


async def refusal(url: str, headers: dict[str, str]) -> str:
    """The error of a connection that should be refused ("connected" if it was not)."""
    try:
        with anyio.fail_after(20):
            async with connect(url, headers, []):
                return "connected"
    except BaseException as error:  # noqa: BLE001 - the report shows whatever it was
        return describe(error)


def describe(error: BaseException) -> str:
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe(e) for e in error.exceptions)
    return f"{type(error).__name__}: {error}"


def text(result: types.CallToolResult) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


async def main(url: str, token: str) -> None:
    report: dict[str, Any] = {"client": f"Python SDK {version('mcp')}"}
    report["unauthorized"] = await refusal(url, {"Authorization": "Bearer not-the-token"})
    report["forbidden"] = await refusal(url, {"Authorization": f"Bearer {token}", "Origin": "https://evil.example"})
    logs: list[Any] = []
    async with connect(url, {"Authorization": f"Bearer {token}"}, logs) as client:
        report["tools"] = [t.name for t in (await client.list_tools()).tools]
        report["echo"] = text(await client.call_tool("echo", {"text": "hello"}))
        await client.call_tool("log", {"text": "a line for the log"})
        report["logs"] = logs
        progress: list[float] = []

        async def counted(value: float, total: float | None, message: str | None) -> None:
            progress.append(value)

        await client.call_tool("count", {"steps": 3}, progress_callback=counted)
        report["progress"] = progress
        report["cancelled"] = "not cancelled"
        with anyio.CancelScope() as scope:

            async def give_up(value: float, total: float | None, message: str | None) -> None:
                report["cancelled"] = "cancelled after the first progress"
                scope.cancel()

            await client.call_tool("wait", {}, progress_callback=give_up)
        report["elicited"] = text(await client.call_tool("ask", {}))
        report["whoami"] = text(await client.call_tool("whoami", {}))
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:3])
