"""What the Python test peers share: the markers they write for tests to observe, and their
Streamable HTTP serving on 127.0.0.1, which says the port it bound."""

from __future__ import annotations

import sys
from typing import Any

import anyio


def stderr_marker(line: str) -> None:
    """Write one marker line to stderr, unbuffered, for tests to observe."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


async def serve_http(app: Any, port: int, path: str, log_level: str) -> None:
    """Serve `app` on 127.0.0.1:`port` and announce the bound port on stderr."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level=log_level.lower()))

    async def announce() -> None:
        while not server.started:
            await anyio.sleep(0.01)
        bound = server.servers[0].sockets[0].getsockname()[1]
        stderr_marker(f"listening on http://127.0.0.1:{bound}{path}")

    async with anyio.create_task_group() as tg:
        tg.start_soon(announce)
        await server.serve()
        tg.cancel_scope.cancel()
