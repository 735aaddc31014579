"""A test peer: an agent on the official Python SDK client (`mcp`) that reaches Switchboard's
gateway the way a coding agent does, by starting a stdio MCP server (the bridge). The Rust
tests drive it with one JSON command per line on stdin and read one JSON line per outcome on
stdout, the lines gateway-agent.mjs speaks (see there).

    python gateway_agent.py [--stateless] [--answers] [--roots URI,...] -- COMMAND ARG...
    python gateway_agent.py [--stateless] [--answers] [--roots URI,...] --http URL TOKEN

With `--stateless` the agent is the SDK's `Client`, which asks `server/discover` first and
speaks the stateless revision (2026-07-28) with a server that answers it: no handshake, and
changes heard through a `subscriptions/listen` stream.
"""

import json
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from mcp import Client, types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


# What it answers when asked, the same as gateway-agent.mjs.
ANSWERS = json.loads((Path(__file__).parent.parent / "gateway-answers.json").read_text())


class Answering:
    """The gateway's requests, answered as gateway-agent.mjs answers them."""

    def __init__(self) -> None:
        at = sys.argv.index("--roots") if "--roots" in sys.argv else None
        self.roots = None if at is None else [u for u in sys.argv[at + 1].split(",") if u]
        self.silent = False

    async def asked(self, method: str) -> None:
        say({"event": "asked", "method": method})
        if self.silent:
            await anyio.sleep_forever()

    async def sampling(self, context, params) -> types.CreateMessageResult:
        await self.asked("sampling/createMessage")
        return types.CreateMessageResult.model_validate(ANSWERS["sampling"])

    async def elicitation(self, context, params) -> types.ElicitResult:
        await self.asked("elicitation/create")
        return types.ElicitResult.model_validate(ANSWERS["elicitation"])

    async def list_roots(self, context) -> types.ListRootsResult:
        await self.asked("roots/list")
        return types.ListRootsResult(roots=[types.Root(uri=uri) for uri in self.roots])

    def callbacks(self) -> dict:
        """The ClientSession callbacks: each declares its capability."""
        found = {}
        if "--answers" in sys.argv:
            found.update(sampling_callback=self.sampling, elicitation_callback=self.elicitation)
        if self.roots is not None:
            found.update(list_roots_callback=self.list_roots)
        return found


def say(line: dict) -> None:
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def dumped(result) -> dict:
    return result.model_dump(by_alias=True, mode="json", exclude_none=True)


async def on_message(message) -> None:
    if isinstance(message, types.ToolListChangedNotification):
        say({"event": "tools_changed"})
    elif isinstance(message, types.ResourceUpdatedNotification):
        say({"event": "resource_updated", "uri": str(message.params.uri)})


def transport():
    """`-- COMMAND ARG...` (a stdio server), or `--http URL TOKEN` (Streamable HTTP)."""
    if "--http" in sys.argv:
        at = sys.argv.index("--http")
        url, token = sys.argv[at + 1], sys.argv[at + 2]
        client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        return streamable_http_client(url, http_client=client)
    argv = sys.argv[sys.argv.index("--") + 1 :]
    return stdio_client(StdioServerParameters(command=argv[0], args=argv[1:]))


async def main() -> None:
    if "--stateless" in sys.argv:
        await main_stateless()
        return
    async with transport() as streams:
        read, write = streams[0], streams[1]
        # A request the gateway never answers (it went away) fails after this, as the
        # TypeScript SDK's do; calls, which wait for the person, set their own.
        answering = Answering()
        async with ClientSession(
            read, write, read_timeout_seconds=20, message_handler=on_message, **answering.callbacks()
        ) as session:
            try:
                with anyio.fail_after(30):
                    initialized = await session.initialize()
            except Exception as error:  # the agent shows why it could not connect
                say({"event": "connect_failed", "error": str(error)})
                return
            say({"event": "connected", "server": initialized.server_info.name})
            await serve(session, answering)


async def main_stateless() -> None:
    answering = Answering()
    client = Client(
        transport(), mode="auto", read_timeout_seconds=20, message_handler=on_message, **answering.callbacks()
    )
    async with AsyncExitStack() as stack:
        try:
            await stack.enter_async_context(client)
        except Exception as error:  # the agent shows why it could not connect
            say({"event": "connect_failed", "error": first_cause(error)})
            return
        server = client.server_info.name if client.server_info else None
        say({"event": "connected", "server": server, "version": client.protocol_version})
        async with anyio.create_task_group() as group:
            group.start_soon(listen, client)
            await serve(client, answering)
            group.cancel_scope.cancel()


async def listen(client: Client) -> None:
    """Change notifications come on this stream, and reach on_message like any other."""
    try:
        async with client.listen(tools_list_changed=True) as subscription:
            async for _ in subscription:
                pass
    except Exception as error:
        say({"event": "listen_ended", "error": first_cause(error)})


def first_cause(error: BaseException) -> str:
    """What went wrong, out of the task groups that carried it."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return str(error)


async def serve(session: ClientSession | Client, answering: Answering) -> None:
    calls: dict[str, anyio.CancelScope] = {}
    done = anyio.Event()

    async def perform(command: dict):
        op = command["op"]
        if op == "list_tools":
            return dumped(await session.list_tools())
        if op == "call_tool":

            async def progress(value, total, message):
                say({"event": "progress", "call": command["id"], "progress": value})

            with anyio.CancelScope() as scope:
                calls[command["id"]] = scope
                # Long calls wait for the person: no timeout of the SDK's own cuts them short.
                result = await session.call_tool(
                    command["name"],
                    command.get("arguments", {}),
                    read_timeout_seconds=600,
                    progress_callback=progress,
                )
                return dumped(result)
            raise RuntimeError("the call was cancelled")
        if op == "cancel":
            scope = calls.get(command["call"])
            if scope:
                scope.cancel()
            return {}
        if op == "list_resources":
            return dumped(await session.list_resources())
        if op == "read_resource":
            return dumped(await session.read_resource(command["uri"]))
        if op == "subscribe":
            return dumped(await session.subscribe_resource(command["uri"]))
        if op == "unsubscribe":
            return dumped(await session.unsubscribe_resource(command["uri"]))
        if op == "list_prompts":
            return dumped(await session.list_prompts())
        if op == "get_prompt":
            return dumped(await session.get_prompt(command["name"], command.get("arguments", {})))
        if op == "set_roots":
            answering.roots = command["uris"]
            await session.send_roots_list_changed()
            return {}
        if op == "silent":
            answering.silent = True
            return {}
        if op == "close":
            done.set()
            return {}
        raise ValueError(f"unknown op {op}")

    async def answer(command: dict) -> None:
        try:
            say({"id": command.get("id"), "ok": await perform(command)})
        except Exception as error:
            say({"id": command.get("id"), "error": str(error)})

    async with anyio.create_task_group() as group:

        async def read_commands() -> None:
            stdin = anyio.wrap_file(sys.stdin)
            async for line in stdin:
                if line.strip():
                    group.start_soon(answer, json.loads(line))
            done.set()

        group.start_soon(read_commands)
        await done.wait()
        group.cancel_scope.cancel()


if __name__ == "__main__":
    anyio.run(main)
