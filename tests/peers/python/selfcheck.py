"""Self-check for server.py, driven by the official Python SDK client (mcp 2.3.0).

Documents, by asserting it, everything the peer does. Run with the project's venv:

    .tools/venv/bin/python tests/peers/python/selfcheck.py                   # stdio
    .tools/venv/bin/python tests/peers/python/selfcheck.py streamable-http
    .tools/venv/bin/python tests/peers/python/selfcheck.py all               # all three transports

Exits non-zero, naming the failed check, if the peer misbehaves.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from mcp.client.session import ClientRequestContext, ClientSession
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

SERVER = Path(__file__).with_name("server.py")
PY = sys.executable


def check(condition: bool, what: str, got: Any = None) -> None:
    if not condition:
        raise AssertionError(f"{what} (got {got!r})")


async def eventually(condition: Callable[[], bool], what: str, timeout: float = 5) -> None:
    """Wait until `condition()` holds; notifications are delivered on their own tasks."""
    with anyio.move_on_after(timeout):
        while not condition():
            await anyio.sleep(0.02)
        return
    raise AssertionError(f"timed out waiting for {what}")


class ClientSide:
    """The client's half: scripted answers to the server's requests, and a record of what arrived."""

    def __init__(self) -> None:
        self.sampling: types.CreateMessageResult | types.ErrorData = types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text="four"), model="test-model"
        )
        self.elicitation: types.ElicitResult | types.ErrorData = types.ElicitResult(action="decline")
        self.roots: list[types.Root] = []
        self.sampling_requests: list[types.CreateMessageRequestParams] = []
        self.elicit_requests: list[types.ElicitRequestParams] = []
        self.logs: list[tuple[str, Any, str | None]] = []
        self.notifications: list[types.ServerNotification] = []

    async def on_sampling(self, ctx: ClientRequestContext, params: types.CreateMessageRequestParams):
        self.sampling_requests.append(params)
        return self.sampling

    async def on_elicit(self, ctx: ClientRequestContext, params: types.ElicitRequestParams):
        self.elicit_requests.append(params)
        return self.elicitation

    async def on_roots(self, ctx: ClientRequestContext):
        return types.ListRootsResult(roots=self.roots)

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append((params.level, params.data, params.logger))

    async def on_message(self, message: Any) -> None:
        if not isinstance(message, Exception):
            self.notifications.append(message)

    def seen(self, kind: type) -> list[Any]:
        return [n for n in self.notifications if isinstance(n, kind)]


def text_of(result: types.CallToolResult) -> str:
    check(len(result.content) == 1 and result.content[0].type == "text", "one text block", result.content)
    return result.content[0].text


async def call_text(session: ClientSession, name: str, args: dict[str, Any] | None = None) -> str:
    result = await session.call_tool(name, args or {})
    check(not result.is_error, f"{name} succeeds", result)
    return text_of(result)


async def all_pages(fetch: Callable[..., Any], field: str) -> list[list[Any]]:
    """Every page of a paginated list, following nextCursor."""
    pages: list[list[Any]] = []
    cursor: str | None = None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        result = await fetch(params=params)
        pages.append(getattr(result, field))
        cursor = result.next_cursor
        if cursor is None:
            return pages


def stderr_text(path: Path) -> str:
    return path.read_text(errors="replace")


async def exercise(session: ClientSession, peer: ClientSide, stderr_path: Path) -> None:
    """Everything but the crash, on one live session."""
    # --- initialize
    init = session.initialize_result
    check(init is not None, "initialized")
    assert init is not None
    check(init.protocol_version == "2025-11-25", "answers initialize with 2025-11-25", init.protocol_version)
    check(init.instructions == "Test server for Switchboard.", "instructions", init.instructions)
    check(init.server_info.name == "switchboard-python-peer", "server name", init.server_info)
    caps = init.capabilities
    check(caps.tools is not None and caps.tools.list_changed is True, "tools.listChanged", caps.tools)
    check(caps.resources is not None and caps.resources.subscribe is True, "resources.subscribe", caps.resources)
    check(caps.prompts is not None, "prompts capability", caps)
    check(caps.logging is not None and caps.completions is not None, "logging + completions", caps)
    await session.send_ping()

    # --- pagination: page size 3, opaque cursors, bad cursors rejected
    tool_pages = await all_pages(session.list_tools, "tools")
    check([len(p) for p in tool_pages] == [3, 3, 3, 3, 1], "tools paged 3/3/3/3/1", [len(p) for p in tool_pages])
    tools = {t.name: t for page in tool_pages for t in page}
    expected_tools = ["echo", "add", "slow", "ask_model", "ask_form", "ask_url", "greet_asked"]
    expected_tools += ["list_roots", "log_levels", "fail", "crash", "bump", "add_tool"]
    check(list(tools) == expected_tools, "tool names in order", list(tools))
    check(tools["add"].output_schema is not None, "add has an output schema")
    check(
        all(t.output_schema is None for n, t in tools.items() if n not in ("add", "fail")),
        "text tools have no output schema",
    )
    resource_pages = await all_pages(session.list_resources, "resources")
    check([len(p) for p in resource_pages] == [3, 3, 3], "resources paged 3/3/3", [len(p) for p in resource_pages])
    uris = [str(r.uri) for page in resource_pages for r in page]
    check(
        uris == [f"test://static/{n}" for n in range(1, 8)] + ["test://blob", "test://counter"], "resource URIs", uris
    )
    templates = await all_pages(session.list_resource_templates, "resource_templates")
    check(
        [[t.uri_template for t in p] for p in templates] == [["test://items/{id}"]], "one template", templates
    )
    prompt_pages = await all_pages(session.list_prompts, "prompts")
    check(
        [[p.name for p in page] for page in prompt_pages] == [["greet", "farewell", "conversation"], ["with_resource"]],
        "prompts paged 3/1",
        prompt_pages,
    )
    greet = prompt_pages[0][0]
    check(
        [(a.name, a.required) for a in greet.arguments or []] == [("name", True), ("style", False)],
        "greet arguments",
        greet.arguments,
    )
    try:
        await session.list_tools(params=types.PaginatedRequestParams(cursor="bogus"))
        raise AssertionError("a bogus cursor is rejected")
    except MCPError as err:
        check(err.code == types.INVALID_PARAMS, "bogus cursor -> -32602", err.error)

    # --- simple tools
    check(await call_text(session, "echo", {"text": "héllo\nworld"}) == "héllo\nworld", "echo")
    added = await session.call_tool("add", {"a": 2, "b": 3})
    check(added.structured_content == {"sum": 5}, "add structured", added.structured_content)
    check(json.loads(text_of(added)) == {"sum": 5}, "add text block is the same JSON", added.content)
    unknown = await session.call_tool("nope", {})
    # MCPServer answers an unknown tool with a tool error, not a protocol error.
    check(unknown.is_error is True and text_of(unknown) == "Unknown tool: nope", "unknown tool", unknown)
    failed = await session.call_tool("fail", {})
    check(failed.is_error is True and text_of(failed) == "this tool always fails", "fail", failed)

    # --- progress
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(p: float, total: float | None, message: str | None) -> None:
        progress.append((p, total, message))

    slow = await session.call_tool("slow", {"steps": 3, "delay_ms": 10}, progress_callback=on_progress)
    check(text_of(slow) == "done after 3 steps", "slow result", slow)
    await eventually(lambda: len(progress) == 3, "three progress notifications")
    check(progress == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")], "progress i/steps", progress)

    # --- cancellation: abandoning the call sends notifications/cancelled
    progress.clear()
    with anyio.move_on_after(10):
        async with anyio.create_task_group() as tg:

            async def long_call() -> None:
                await session.call_tool("slow", {"steps": 100, "delay_ms": 50}, progress_callback=on_progress)

            tg.start_soon(long_call)
            await eventually(lambda: len(progress) >= 1, "the first progress notification")
            tg.cancel_scope.cancel()
    await eventually(lambda: "slow cancelled" in stderr_text(stderr_path), "`slow cancelled` on stderr")
    count = len(progress)
    await anyio.sleep(0.3)
    check(len(progress) == count, "no progress after cancellation", progress)
    check(await call_text(session, "echo", {"text": "still alive"}) == "still alive", "session survives a cancel")

    # --- sampling
    check(await call_text(session, "ask_model", {"prompt": "2+2?"}) == "model said: four", "ask_model")
    request = peer.sampling_requests[-1]
    check(request.max_tokens == 100 and request.system_prompt == "Be brief.", "sampling params", request)
    check(
        [(m.role, m.content.text) for m in request.messages] == [("user", "2+2?")],  # type: ignore[union-attr]
        "sampling message",
        request.messages,
    )
    peer.sampling = types.ErrorData(code=-1, message="User rejected sampling request")
    check(
        await call_text(session, "ask_model", {"prompt": "x"}) == "sampling failed: User rejected sampling request",
        "ask_model on error",
    )

    # --- form elicitation
    peer.elicitation = types.ElicitResult(
        action="accept", content={"subscribe": True, "name": "Ada", "color": "blue", "age": 36}
    )
    check(
        await call_text(session, "ask_form")
        == 'accepted: {"age":36,"color":"blue","name":"Ada","subscribe":true}',
        "ask_form accepted",
    )
    form = peer.elicit_requests[-1]
    check(isinstance(form, types.ElicitRequestFormParams), "form mode", form)
    assert isinstance(form, types.ElicitRequestFormParams)
    schema = form.requested_schema
    props = schema["properties"]
    check(schema["required"] == ["name"], "only name required", schema)
    check(props["name"]["type"] == "string" and props["name"]["minLength"] == 2, "name schema", props["name"])
    check(
        (props["age"]["type"], props["age"]["minimum"], props["age"]["maximum"]) == ("integer", 0, 150),
        "age schema",
        props["age"],
    )
    check(
        props["color"]["enum"] == ["red", "green", "blue"] and props["color"]["default"] == "green",
        "color schema",
        props["color"],
    )
    check(props["subscribe"]["type"] == "boolean" and props["subscribe"]["default"] is False, "subscribe schema")
    peer.elicitation = types.ElicitResult(action="accept", content={"name": "Bo"})
    check(await call_text(session, "ask_form") == 'accepted: {"name":"Bo"}', "only the keys sent are echoed")
    peer.elicitation = types.ElicitResult(action="decline")
    check(await call_text(session, "ask_form") == "declined", "ask_form declined")
    peer.elicitation = types.ElicitResult(action="cancel")
    check(await call_text(session, "ask_form") == "cancelled", "ask_form cancelled")

    # --- URL elicitation; acceptance is followed by notifications/elicitation/complete
    peer.elicitation = types.ElicitResult(action="accept")
    check(await call_text(session, "ask_url") == "url accepted", "ask_url accepted")
    url = peer.elicit_requests[-1]
    check(isinstance(url, types.ElicitRequestURLParams), "url mode", url)
    assert isinstance(url, types.ElicitRequestURLParams)
    check(url.url == "https://example.com/authorize?session=42", "url", url.url)
    check(url.elicitation_id == "elicit-42", "elicitation id", url.elicitation_id)
    await eventually(lambda: bool(peer.seen(types.ElicitCompleteNotification)), "elicitation/complete")
    check(peer.seen(types.ElicitCompleteNotification)[0].params.elicitation_id == "elicit-42", "complete id")
    peer.elicitation = types.ElicitResult(action="decline")
    check(await call_text(session, "ask_url") == "url declined", "ask_url declined")
    peer.elicitation = types.ElicitResult(action="cancel")
    check(await call_text(session, "ask_url") == "url cancelled", "ask_url cancelled")

    # --- roots
    check(await call_text(session, "list_roots") == "no roots", "no roots")
    peer.roots = [
        types.Root(uri="file:///home/user/project", name="project"),
        types.Root(uri="file:///tmp/scratch"),
    ]
    check(
        await call_text(session, "list_roots") == "file:///home/user/project\nfile:///tmp/scratch", "roots listed"
    )

    # --- logging, then logging/setLevel filters it
    check(await call_text(session, "log_levels") == "logged", "log_levels")
    expected = [(level, f"at {level}", "peer") for level in ("debug", "info", "warning", "error")]
    await eventually(lambda: len(peer.logs) == 4, "four log notifications")
    check(peer.logs == expected, "log notifications", peer.logs)
    peer.logs.clear()
    await session.set_logging_level("warning")
    await call_text(session, "log_levels")
    await eventually(lambda: len(peer.logs) == 2, "two log notifications")
    check(peer.logs == expected[2:], "setLevel warning filters", peer.logs)
    await session.set_logging_level("debug")

    # --- resources
    for n in range(1, 8):
        read = await session.read_resource(f"test://static/{n}")
        (content,) = read.contents
        check(isinstance(content, types.TextResourceContents), "text resource", content)
        assert isinstance(content, types.TextResourceContents)
        check((content.text, content.mime_type) == (f"resource {n}", "text/plain"), f"static/{n}", content)
    (blob,) = (await session.read_resource("test://blob")).contents
    check(isinstance(blob, types.BlobResourceContents), "blob resource", blob)
    assert isinstance(blob, types.BlobResourceContents)
    check(base64.b64decode(blob.blob) == bytes(range(256)), "blob bytes 0..255")
    check(blob.mime_type == "application/octet-stream", "blob mime type", blob.mime_type)
    (item,) = (await session.read_resource("test://items/42")).contents
    check(getattr(item, "text", None) == "item 42", "template read", item)
    try:
        await session.get_prompt("nope")
        raise AssertionError("getting an unknown prompt fails")
    except MCPError as err:
        check(err.code == types.INVALID_PARAMS, "unknown prompt -> -32602", err.error)
    try:
        await session.read_resource("test://nope")
        raise AssertionError("reading an unknown resource fails")
    except MCPError as err:
        check(err.code == types.INVALID_PARAMS, "unknown resource -> -32602", err.error)

    # --- prompts
    plain = await session.get_prompt("greet", {"name": "Ada"})
    check(
        [(m.role, m.content.text) for m in plain.messages] == [("user", "Hello, Ada!")],  # type: ignore[union-attr]
        "greet plain",
        plain.messages,
    )
    loud = await session.get_prompt("greet", {"name": "Ada", "style": "loud"})
    check(loud.messages[0].content.text == "HELLO, ADA!", "greet loud", loud.messages)  # type: ignore[union-attr]
    bye = await session.get_prompt("farewell", {"name": "Bo"})
    check(bye.messages[0].content.text == "Goodbye, Bo!", "farewell", bye.messages)  # type: ignore[union-attr]
    chat = await session.get_prompt("conversation")
    check([m.role for m in chat.messages] == ["user", "assistant"], "conversation roles", chat.messages)
    embedded = await session.get_prompt("with_resource")
    check(embedded.messages[0].content.type == "resource", "embedded resource prompt", embedded.messages)

    # --- completion
    async def complete(ref: Any, name: str, value: str) -> list[str]:
        return (await session.complete(ref, {"name": name, "value": value})).completion.values

    greet_ref = types.PromptReference(type="ref/prompt", name="greet")
    items_ref = types.ResourceTemplateReference(type="ref/resource", uri="test://items/{id}")
    check(await complete(greet_ref, "style", "l") == ["loud", "lyrical"], "complete style l")
    check(await complete(greet_ref, "style", "") == ["plain", "loud", "lyrical"], "complete style ''")
    check(await complete(greet_ref, "name", "") == [], "nothing for greet name")
    check(await complete(items_ref, "id", "1") == ["1", "10"], "complete id 1")
    check(await complete(items_ref, "id", "2") == ["2", "20"], "complete id 2")

    # --- subscriptions
    def updated() -> list[types.ResourceUpdatedNotification]:
        return [n for n in peer.seen(types.ResourceUpdatedNotification) if n.params.uri == "test://counter"]

    await session.subscribe_resource("test://counter")
    check(await call_text(session, "bump") == "count 1", "bump 1")
    await eventually(lambda: len(updated()) == 1, "resources/updated for test://counter")
    (counter,) = (await session.read_resource("test://counter")).contents
    check(getattr(counter, "text", None) == "count 1", "counter reads count 1", counter)
    await session.unsubscribe_resource("test://counter")
    check(await call_text(session, "bump") == "count 2", "bump 2")
    await anyio.sleep(0.3)
    check(len(updated()) == 1, "no update after unsubscribe", updated())

    # --- list_changed
    check(await call_text(session, "add_tool", {"name": "echo2"}) == "added tool echo2", "add_tool")
    await eventually(lambda: bool(peer.seen(types.ToolListChangedNotification)), "tools/list_changed")
    pages = await all_pages(session.list_tools, "tools")
    check([len(p) for p in pages] == [3, 3, 3, 3, 2] and pages[-1][-1].name == "echo2", "echo2 listed", pages[-1])
    check(await call_text(session, "echo2", {"text": "again"}) == "again", "echo2 echoes")
    duplicate = await session.call_tool("add_tool", {"name": "echo2"})
    check(duplicate.is_error is True and text_of(duplicate) == "tool echo2 already exists", "duplicate add_tool")
    redefined = {"name": "echo2", "description": "Now also wants a note.", "replace": True}
    check(await call_text(session, "add_tool", redefined) == "redefined tool echo2", "add_tool replace")
    echo2 = (await all_pages(session.list_tools, "tools"))[-1][-1]
    check(echo2.description == "Now also wants a note." and "note" in echo2.input_schema["properties"], "replaced definition", echo2)


async def fan_out(transport: str, url: str) -> None:
    """HTTP only: change notifications reach other sessions too (on their standalone streams)."""
    a, b = ClientSide(), ClientSide()
    async with connect(transport, url) as (read_a, write_a), connect(transport, url) as (read_b, write_b):
        async with new_session(a, read_a, write_a) as session_a, new_session(b, read_b, write_b) as session_b:
            await session_a.initialize()
            await session_b.initialize()
            # The Python client validates structured output against the tool's listed
            # schema and only fetches the first page itself; list every page up front.
            await all_pages(session_a.list_tools, "tools")
            await session_b.subscribe_resource("test://counter")
            check((await call_text(session_a, "bump")).startswith("count "), "bump from session A")
            await eventually(lambda: bool(b.seen(types.ResourceUpdatedNotification)), "session B sees the update")
            check(not a.seen(types.ResourceUpdatedNotification), "session A is not subscribed")
            await call_text(session_a, "add_tool", {"name": f"from_{transport.replace('-', '_')}"})
            await eventually(lambda: bool(b.seen(types.ToolListChangedNotification)), "session B sees list_changed")
    # Session B is gone; notifying it must not disturb anyone else.
    async with connect(transport, url) as (read, write):
        async with new_session(ClientSide(), read, write) as session:
            await session.initialize()
            await all_pages(session.list_tools, "tools")
            check((await call_text(session, "bump")).startswith("count "), "bump after B left")


def connect(transport: str, url: str) -> Any:
    return sse_client(url) if transport == "sse" else streamable_http_client(url)


async def crash(session: ClientSession, stderr_path: Path) -> None:
    """The crash tool ends the session: the pending call fails, the server says why."""
    # The client transports log the dropped connection with a traceback; expected here.
    logging.getLogger("mcp").setLevel(logging.CRITICAL)
    try:
        with anyio.fail_after(10):
            await session.call_tool("crash", {})
        raise AssertionError("crash returned a result")
    except MCPError as err:
        print(f"    crash ended the session: {err.code} {err.message}")
    await eventually(lambda: "about to crash" in stderr_text(stderr_path), "`about to crash` on stderr")


def new_session(peer: ClientSide, read: Any, write: Any) -> ClientSession:
    return ClientSession(
        read,
        write,
        read_timeout_seconds=30,
        sampling_callback=peer.on_sampling,
        elicitation_callback=peer.on_elicit,
        list_roots_callback=peer.on_roots,
        logging_callback=peer.on_log,
        message_handler=peer.on_message,
    )


async def run_stdio(stderr_path: Path) -> None:
    peer = ClientSide()
    with stderr_path.open("w") as errlog:
        params = StdioServerParameters(command=PY, args=[str(SERVER)])
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with new_session(peer, read, write) as session:
                await session.initialize()
                await exercise(session, peer, stderr_path)
                await crash(session, stderr_path)


def raw_stdio_crash_status() -> None:
    """Over raw stdio: the crash tool exits with status 3 after writing its marker."""
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
    }
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "crash", "arguments": {}}}
    proc = subprocess.Popen(
        [PY, str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(initialize) + "\n")
    proc.stdin.flush()
    check(json.loads(proc.stdout.readline()).get("id") == 1, "initialize answered")
    proc.stdin.write(json.dumps(initialized) + "\n" + json.dumps(call) + "\n")
    proc.stdin.flush()
    out, err = proc.communicate(timeout=20)
    check(out == "", "the crash call gets no answer", out)
    check(proc.returncode == 3, "crash exits with status 3", proc.returncode)
    check(err.strip().splitlines()[-1] == "about to crash", "crash marker is the last stderr line", err)


async def run_http(transport: str, stderr_path: Path) -> None:
    with stderr_path.open("w") as errlog:
        proc = subprocess.Popen([PY, str(SERVER), transport, "--port", "0"], stdin=subprocess.DEVNULL, stderr=errlog)
    try:
        deadline = time.monotonic() + 20
        url = None
        while url is None:
            for line in stderr_text(stderr_path).splitlines():
                if line.startswith("listening on "):
                    url = line.removeprefix("listening on ")
            check(proc.poll() is None, "server is running", stderr_text(stderr_path))
            check(time.monotonic() < deadline, "server announces its address", stderr_text(stderr_path))
            await anyio.sleep(0.05)
        print(f"    server at {url}")
        peer = ClientSide()
        async with connect(transport, url) as (read, write):
            async with new_session(peer, read, write) as session:
                await session.initialize()
                await exercise(session, peer, stderr_path)
                await fan_out(transport, url)
                await crash(session, stderr_path)
        check(proc.wait(timeout=10) == 3, "crash exits with status 3", proc.returncode)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    transports = ["stdio", "sse", "streamable-http"] if which == "all" else [which]
    with tempfile.TemporaryDirectory() as tmp:
        for transport in transports:
            print(f"{transport}:")
            stderr_path = Path(tmp, f"{transport}.stderr")
            try:
                if transport == "stdio":
                    anyio.run(run_stdio, stderr_path)
                    raw_stdio_crash_status()
                else:
                    anyio.run(run_http, transport, stderr_path)
            except BaseException:
                print(f"--- server stderr ({transport}) ---\n{stderr_text(stderr_path)}", file=sys.stderr)
                raise
            print("    ok")
    print("selfcheck passed")


if __name__ == "__main__":
    os.chdir(Path(__file__).parent)
    main()
