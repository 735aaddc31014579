"""Interop test peer: an MCP server built on the official Python SDK (mcp 2.3.0).

Switchboard's MCP client tests run this server over each transport and check
the client against every server feature. All outputs are deterministic.

    python server.py [stdio]                     # default
    python server.py sse --port N                # GET /sse, POST /messages/?session_id=...
    python server.py streamable-http --port N    # POST/GET/DELETE /mcp

HTTP transports bind 127.0.0.1 only. `--port 0` picks a free port; once the
socket is listening the server prints `listening on http://127.0.0.1:<port><path>`
to stderr. Run with `--log-level INFO` to see the SDK's own logging, and see
`--help` for `--json-response`.

Markers written to stderr so tests can observe them:
    `slow cancelled`   the `slow` tool was cancelled (notifications/cancelled,
                       or its client went away mid-call)
    `about to crash`   the `crash` tool is about to exit with status 3

See selfcheck.py for the exact behaviour of every tool, resource and prompt.
"""

from __future__ import annotations

import argparse
import base64
import json
import logging
import os
import warnings
import weakref
from typing import Annotated, Any, Literal

import anyio
import mcp.types as types
from mcp.server.connection import Connection
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.mcpserver import Context, Elicit, ListRoots, MCPServer, Resolve
from mcp.server.mcpserver.resources import BinaryResource, TextResource
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.message import ServerMessageMetadata
from pydantic import BaseModel, Field

from peer_http import serve_http, stderr_marker

# Sampling, roots and logging are deprecated as of the 2026-07-28 revision; this
# peer speaks them on purpose, so keep the warnings off stderr.
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

PAGE_SIZE = 3
COUNTER_URI = "test://counter"
ITEM_TEMPLATE = "test://items/{id}"
STYLE_VALUES = ["plain", "loud", "lyrical"]
ITEM_IDS = ["1", "2", "10", "20"]
LOG_LEVELS: tuple[types.LoggingLevel, ...] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)


def connection_of(session: ServerSession) -> Connection:
    """The per-client connection behind a request's session.

    mcp 2.3.0 has no public accessor for it from a handler, hence the private
    attribute. Its `state` dict persists across the connection's requests.
    """
    return session._connection  # pyright: ignore[reportPrivateUsage]


# Every connection that has sent a request, and those subscribed to the
# counter; used to fan change notifications out to other clients.
known_connections: weakref.WeakSet[Connection] = weakref.WeakSet()
counter_subscribers: weakref.WeakSet[Connection] = weakref.WeakSet()


# --- Pagination --------------------------------------------------------------


def encode_cursor(kind: str, offset: int) -> str:
    """An opaque cursor: base64 of `<list kind>:<offset>`."""
    return base64.urlsafe_b64encode(f"{kind}:{offset}".encode()).decode()


def decode_cursor(kind: str, cursor: str) -> int:
    """The offset in `cursor`; INVALID_PARAMS if it is not one of ours for `kind`."""
    try:
        cursor_kind, offset_text = base64.urlsafe_b64decode(cursor.encode()).decode().split(":")
        offset = int(offset_text)
    except ValueError:
        offset = -1
        cursor_kind = ""
    if cursor_kind != kind or offset < 0:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Invalid cursor: {cursor}")
    return offset


def paginate(kind: str, items: list[Any], params: types.PaginatedRequestParams | None) -> tuple[list[Any], str | None]:
    """One page of `items` for the request's cursor, plus the next cursor (None on the last page)."""
    start = decode_cursor(kind, params.cursor) if params and params.cursor else 0
    end = start + PAGE_SIZE
    return items[start:end], encode_cursor(kind, end) if end < len(items) else None


class PeerServer(MCPServer):
    """MCPServer with paginated list handlers.

    MCPServer's own list handlers return everything in one page; they are
    bound by name in `__init__`, so overriding them here takes effect.
    """

    async def _handle_list_tools(self, ctx: ServerRequestContext, params: types.PaginatedRequestParams | None):
        page, cursor = paginate("tools", await self.list_tools(), params)
        return types.ListToolsResult(tools=page, next_cursor=cursor)

    async def _handle_list_resources(self, ctx: ServerRequestContext, params: types.PaginatedRequestParams | None):
        page, cursor = paginate("resources", await self.list_resources(), params)
        return types.ListResourcesResult(resources=page, next_cursor=cursor)

    async def _handle_list_resource_templates(
        self, ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ):
        page, cursor = paginate("templates", await self.list_resource_templates(), params)
        return types.ListResourceTemplatesResult(resource_templates=page, next_cursor=cursor)

    async def _handle_list_prompts(self, ctx: ServerRequestContext, params: types.PaginatedRequestParams | None):
        page, cursor = paginate("prompts", await self.list_prompts(), params)
        return types.ListPromptsResult(prompts=page, next_cursor=cursor)

    async def _handle_get_prompt(self, ctx: ServerRequestContext, params: types.GetPromptRequestParams):
        # MCPServer raises ValueError for an unknown prompt or a missing argument,
        # which reaches the wire as error code 0 (plus a traceback on stderr);
        # the spec asks for -32602.
        try:
            return await super()._handle_get_prompt(ctx, params)
        except ValueError as err:
            raise MCPError(code=types.INVALID_PARAMS, message=str(err)) from None


mcp = PeerServer(
    name="switchboard-python-peer",
    version="1.0.0",
    instructions="Test server for Switchboard.",
    log_level="WARNING",
)

# MCPServer advertises no listChanged flags; this peer sends tools/list_changed.
_create_initialization_options = mcp._lowlevel_server.create_initialization_options


def create_initialization_options(notification_options: NotificationOptions | None = None, *args: Any, **kwargs: Any):
    return _create_initialization_options(
        notification_options or NotificationOptions(tools_changed=True), *args, **kwargs
    )


mcp._lowlevel_server.create_initialization_options = create_initialization_options  # type: ignore[method-assign]


async def remember_connection(ctx: ServerRequestContext, call_next: Any) -> Any:
    """Middleware: note every connection that sends a request."""
    if ctx.request_id is not None:
        known_connections.add(connection_of(ctx.session))
    return await call_next(ctx)


mcp.middleware.append(remember_connection)


# --- Tools -------------------------------------------------------------------
# Text tools pass structured_output=False: MCPServer would otherwise publish an
# output schema `{"result": string}` for a `-> str` tool.


@mcp.tool(structured_output=False)
async def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


class Sum(BaseModel):
    sum: int


@mcp.tool()
async def add(a: int, b: int) -> Sum:
    """Add two integers; structured output {"sum": a + b}."""
    return Sum(sum=a + b)


@mcp.tool(structured_output=False)
async def slow(steps: int, delay_ms: int, ctx: Context) -> str:
    """Sleep `steps` times for `delay_ms`, reporting progress after each; stops when cancelled."""
    try:
        for i in range(1, steps + 1):
            await anyio.sleep(delay_ms / 1000)
            await ctx.report_progress(i, steps, f"step {i}")
    except anyio.get_cancelled_exc_class():
        # notifications/cancelled cancels the handler's scope (mcp 2.x "interrupt" mode).
        stderr_marker("slow cancelled")
        raise
    return f"done after {steps} steps"


@mcp.tool(structured_output=False)
async def ask_model(prompt: str, ctx: Context) -> str:
    """Ask the client's model (sampling/createMessage) and relay its reply."""
    try:
        result = await ctx.session.create_message(
            messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=prompt))],
            max_tokens=100,
            system_prompt="Be brief.",
            related_request_id=ctx.request_id,
        )
    except MCPError as err:
        return f"sampling failed: {err.message}"
    content = result.content
    text = content.text if isinstance(content, types.TextContent) else f"[{content.type} content]"
    return f"model said: {text}"


# The form ask_form elicits (no docstring: it would become the schema's description).
class Profile(BaseModel):
    name: str = Field(min_length=2, description="Your name")
    age: int | None = Field(default=None, ge=0, le=150, description="Your age")
    color: Literal["red", "green", "blue"] = Field(default="green", description="Favourite colour")
    subscribe: bool = Field(default=False, description="Subscribe to the newsletter")


@mcp.tool(structured_output=False)
async def ask_form(ctx: Context) -> str:
    """Elicit a form (name, age, color, subscribe) and report what the user did."""
    try:
        result = await ctx.elicit("Tell us about yourself.", Profile)
    except MCPError as err:
        return f"elicitation failed: {err.message}"
    except ValueError as err:  # accepted, but the content does not match the schema
        return f"elicitation failed: {err}"
    if result.action == "accept":
        content = result.data.model_dump(exclude_unset=True)
        return "accepted: " + json.dumps(content, sort_keys=True, separators=(",", ":"))
    return "declined" if result.action == "decline" else "cancelled"


@mcp.tool(structured_output=False)
async def ask_url(ctx: Context) -> str:
    """Elicit a URL-mode authorization; on accept also send notifications/elicitation/complete."""
    elicitation_id = "elicit-42"
    try:
        result = await ctx.elicit_url(
            "Please authorize access.", "https://example.com/authorize?session=42", elicitation_id
        )
    except MCPError as err:
        return f"elicitation failed: {err.message}"
    if result.action == "accept":
        await ctx.session.send_elicit_complete(elicitation_id, related_request_id=ctx.request_id)
        return "url accepted"
    return "url declined" if result.action == "decline" else "url cancelled"


# A form a resolver asks for: the SDK sends it as a request mid-call to a client of the
# stateful era, and as an `input_required` result (then a retry) to a 2026-07-28 client.
class Nickname(BaseModel):
    nickname: str = Field(description="What shall we call you?")


async def ask_nickname() -> Elicit[Nickname]:
    return Elicit("What shall we call you?", Nickname)


async def ask_roots() -> ListRoots:
    return ListRoots()


@mcp.tool(structured_output=False)
async def greet_asked(
    nickname: Annotated[Nickname, Resolve(ask_nickname)],
    roots: Annotated[types.ListRootsResult, Resolve(ask_roots)],
) -> str:
    """Ask for a nickname (a form) and the client's roots, then greet: "Hello <nickname>, you share <n> folder(s)"."""
    return f"Hello {nickname.nickname}, you share {len(roots.roots)} folder(s)"


@mcp.tool(structured_output=False)
async def list_roots(ctx: Context) -> str:
    """Ask the client for its roots (roots/list); URIs one per line."""
    try:
        # ServerSession.list_roots() sends on the standalone channel, which over
        # streamable HTTP needs the client's GET stream; tie it to this request instead.
        result = await ctx.session.send_request(
            types.ListRootsRequest(),
            types.ListRootsResult,
            metadata=ServerMessageMetadata(related_request_id=ctx.request_id),
        )
    except MCPError as err:
        return f"roots failed: {err.message}"
    return "\n".join(str(root.uri) for root in result.roots) or "no roots"


@mcp.tool(structured_output=False)
async def log_levels(ctx: Context) -> str:
    """Log "at <level>" at debug, info, warning and error (honouring logging/setLevel)."""
    minimum = connection_of(ctx.session).state.get("log_level", "debug")
    for level in ("debug", "info", "warning", "error"):
        if LOG_LEVELS.index(level) >= LOG_LEVELS.index(minimum):
            await ctx.log(level, f"at {level}", logger_name="peer")
    return "logged"


@mcp.tool()
async def fail() -> types.CallToolResult:
    """Always return a tool error (isError true)."""
    # Returned, not raised: a raised ToolError gets an "Error executing tool fail: " prefix.
    return types.CallToolResult(
        content=[types.TextContent(type="text", text="this tool always fails")], is_error=True
    )


@mcp.tool(structured_output=False)
async def crash() -> str:
    """Write "about to crash" to stderr and exit the process with status 3."""
    stderr_marker("about to crash")
    os._exit(3)


counter = 0


@mcp.tool(structured_output=False)
async def bump(ctx: Context) -> str:
    """Increment the counter and notify subscribers of test://counter; returns "count <n>"."""
    global counter
    counter += 1
    updated = types.ResourceUpdatedNotification(params=types.ResourceUpdatedNotificationParams(uri=COUNTER_URI))
    caller = connection_of(ctx.session)
    for conn in list(counter_subscribers):
        if conn is caller:
            # On this request's stream, so it reaches the client before the result.
            await ctx.session.send_notification(updated, related_request_id=ctx.request_id)
        else:
            await conn.send_resource_updated(COUNTER_URI)
    # 2026-07-28 clients hear it on their subscriptions/listen streams, if they asked.
    await ctx.notify_resource_updated(COUNTER_URI)
    return f"count {counter}"


@mcp.tool(structured_output=False)
async def add_tool(
    name: str, ctx: Context, description: str = "", replace: bool = False
) -> str | types.CallToolResult:
    """Register a new echo tool called `name` and send notifications/tools/list_changed.

    With `replace`, redefine the existing tool `name` instead (as a server pulling the rug
    would): `description` becomes its description and it takes an extra `note` argument.
    """
    exists = any(tool.name == name for tool in await mcp.list_tools())
    if exists != replace:
        problem = f"tool {name} already exists" if exists else f"no tool {name} to replace"
        return types.CallToolResult(content=[types.TextContent(type="text", text=problem)], is_error=True)

    if replace:

        async def redefined(text: str, note: str = "") -> str:
            return text

        mcp.remove_tool(name)
        mcp.add_tool(redefined, name=name, description=description, structured_output=False)
    else:

        async def added(text: str) -> str:
            return text

        mcp.add_tool(added, name=name, description=f"Echo tool added at runtime as {name}.", structured_output=False)
    changed = types.ToolListChangedNotification()
    caller = connection_of(ctx.session)
    await ctx.session.send_notification(changed, related_request_id=ctx.request_id)
    for conn in list(known_connections):
        if conn is not caller:
            await conn.send_tool_list_changed()
    # 2026-07-28 clients hear it on their subscriptions/listen streams.
    await ctx.notify_tools_changed()
    return f"{'redefined' if replace else 'added'} tool {name}"


# --- Resources ---------------------------------------------------------------

for n in range(1, 8):
    mcp.add_resource(
        TextResource(uri=f"test://static/{n}", name=f"static-{n}", text=f"resource {n}", mime_type="text/plain")
    )

mcp.add_resource(
    BinaryResource(uri="test://blob", name="blob", data=bytes(range(256)), mime_type="application/octet-stream")
)


@mcp.resource(COUNTER_URI, name="counter", mime_type="text/plain")
async def counter_resource() -> str:
    """The bump counter; subscribable."""
    return f"count {counter}"


@mcp.resource(ITEM_TEMPLATE, name="item", mime_type="text/plain")
async def item(id: str) -> str:
    """Any item by id."""
    return f"item {id}"


async def subscribe(ctx: ServerRequestContext, params: types.SubscribeRequestParams) -> types.EmptyResult:
    """resources/subscribe: accepted for any URI; only test://counter ever changes."""
    if str(params.uri) == COUNTER_URI:
        counter_subscribers.add(connection_of(ctx.session))
    return types.EmptyResult()


async def unsubscribe(ctx: ServerRequestContext, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
    """resources/unsubscribe: always accepted."""
    if str(params.uri) == COUNTER_URI:
        counter_subscribers.discard(connection_of(ctx.session))
    return types.EmptyResult()


async def set_level(ctx: ServerRequestContext, params: types.SetLevelRequestParams) -> types.EmptyResult:
    """logging/setLevel: the minimum level log_levels emits on this connection."""
    connection_of(ctx.session).state["log_level"] = params.level
    return types.EmptyResult()


# MCPServer has no decorators for these; register them on the low-level server.
# Their presence is what advertises resources.subscribe and logging.
mcp._lowlevel_server.add_request_handler("resources/subscribe", types.SubscribeRequestParams, subscribe)
mcp._lowlevel_server.add_request_handler("resources/unsubscribe", types.UnsubscribeRequestParams, unsubscribe)
mcp._lowlevel_server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)


# --- Prompts -----------------------------------------------------------------


@mcp.prompt()
async def greet(name: str, style: str = "plain") -> str:
    """One user message "Hello, <name>!" (uppercased when style is "loud")."""
    text = f"Hello, {name}!"
    return text.upper() if style == "loud" else text


@mcp.prompt()
async def farewell(name: str) -> str:
    """One user message "Goodbye, <name>!"."""
    return f"Goodbye, {name}!"


@mcp.prompt()
async def conversation() -> list[dict[str, Any]]:
    """A user message then an assistant message."""
    return [
        {"role": "user", "content": {"type": "text", "text": "Hi"}},
        {"role": "assistant", "content": {"type": "text", "text": "Hello! How can I help?"}},
    ]


@mcp.prompt()
async def with_resource() -> list[dict[str, Any]]:
    """One user message embedding the resource test://static/1."""
    resource = {"uri": "test://static/1", "mimeType": "text/plain", "text": "resource 1"}
    return [{"role": "user", "content": {"type": "resource", "resource": resource}}]


# --- Completion --------------------------------------------------------------


@mcp.completion()
async def complete(
    ref: types.PromptReference | types.ResourceTemplateReference,
    argument: types.CompletionArgument,
    context: types.CompletionContext | None,
) -> types.Completion:
    """greet's `style` and test://items/{id}'s `id`, by prefix; nothing for anything else."""
    candidates: list[str] = []
    if isinstance(ref, types.PromptReference) and ref.name == "greet" and argument.name == "style":
        candidates = STYLE_VALUES
    elif isinstance(ref, types.ResourceTemplateReference) and ref.uri == ITEM_TEMPLATE and argument.name == "id":
        candidates = ITEM_IDS
    values = [value for value in candidates if value.startswith(argument.value)]
    return types.Completion(values=values, total=len(values), has_more=False)


# --- Transports --------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("transport", nargs="?", default="stdio", choices=["stdio", "sse", "streamable-http"])
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (0 = any free port)")
    parser.add_argument(
        "--json-response",
        action="store_true",
        help="streamable-http: answer each POST with one JSON body instead of an SSE stream "
        "(the SDK then drops request-scoped notifications and refuses server-to-client requests)",
    )
    parser.add_argument(
        "--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
    )
    args = parser.parse_args()

    logging.getLogger().setLevel(args.log_level)

    if args.transport == "stdio":
        mcp.run("stdio")
    elif args.transport == "sse":
        anyio.run(serve_http, mcp.sse_app(host="127.0.0.1"), args.port, "/sse", args.log_level)
    else:
        app = mcp.streamable_http_app(host="127.0.0.1", json_response=args.json_response)
        anyio.run(serve_http, app, args.port, "/mcp", args.log_level)


if __name__ == "__main__":
    main()
