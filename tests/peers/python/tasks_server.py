"""Interop test peer: an MCP server offering the tasks extension, on the official Python SDK (mcp 2.3.0).

The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663, the 2026-07-28 revision's
form) lets a server answer a `tools/call` with a task the client then polls. The SDK has
no tasks support of its own, so `TasksExtension` below adds it through the SDK's extension
API (`MCPServer(extensions=[...])`): `MethodBinding`s for `tasks/get`, `tasks/update` and
`tasks/cancel`, and an `intercept_tool_call` that turns a call into a task. All outputs
are deterministic.

    python tasks_server.py [stdio]                     # default
    python tasks_server.py streamable-http --port N    # POST/GET/DELETE /mcp

HTTP binds 127.0.0.1 only. `--port 0` picks a free port; once the socket is listening
the server prints `listening on http://127.0.0.1:<port><path>` to stderr. Run with
`--log-level INFO` to see the SDK's own logging, and see `--help` for `--json-response`.

The server speaks the era the client opens with (the SDK decides): a client that
sends the 2026-07-28 per-request `_meta` envelope (e.g. `server/discover`) is served
stateless 2026-07-28, and one that sends `initialize` gets the handshake era. Tasks
exist only on the 2026-07-28 wire, and only for a request whose own
`_meta["io.modelcontextprotocol/clientCapabilities"].extensions` names the extension.

Tools:
    slow_report {seconds}   waits `seconds`, then "Report ready after <seconds> s"
    confirm_archive {name}  asks a form {confirm: boolean} under the key `confirm`
                            ("Archive <name>?"), then "Archived <name>" when confirmed,
                            "Kept <name>" otherwise (declined or cancelled too)
    broken_job {}           after 0.2 s fails with JSON-RPC error -32603 "The job broke down"

With the extension declared on the call, each of them is answered at once with a task
(`resultType: "task"`, status `working`) and runs in the background: slow_report then
completes, confirm_archive goes `input_required` until `tasks/update` answers `confirm`,
and broken_job ends `failed` with the error inlined. Without it, each runs synchronously:
confirm_archive asks through the 2026-07-28 `input_required` result (a retry carrying
`inputResponses`) or, in the handshake era, an `elicitation/create` request, and
broken_job's error is the call's JSON-RPC error.

Tasks are kept for 10 minutes after creation (`ttlMs`) and are polled every 200 ms
(`pollIntervalMs`).

Markers written to stderr so tests can observe them:
    `task <id> cancelled`   `tasks/cancel` stopped the work of task <id>

Switchboard's client drives these paths in crates/cli/tests/it/cli_tasks.rs and
crates/desk/tests/it/tasks.rs.
"""

from __future__ import annotations

import argparse
import logging
import uuid
import warnings
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

import anyio
import anyio.abc
import mcp.types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, Extension, MCPServer, MethodBinding, require_client_extension
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types import InputResponses, RequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from mcp_types import methods as spec_methods

from pydantic import BaseModel, TypeAdapter, ValidationError

from peer_http import serve_http, stderr_marker

warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

logger = logging.getLogger("tasks_server")

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
TASK_TTL_MS = 10 * 60 * 1000
POLL_INTERVAL_MS = 200
TERMINAL = frozenset({"completed", "failed", "cancelled"})
MODERN = frozenset(MODERN_PROTOCOL_VERSIONS)

INPUT_RESPONSES = TypeAdapter(InputResponses)


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC with milliseconds, e.g. `2026-07-28T12:00:00.000Z`."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def wire(result: HandlerResult) -> dict[str, Any]:
    """A handler result as its JSON form."""
    if isinstance(result, BaseModel):
        return result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dict(result or {})


def declares_tasks(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Whether THIS request may use tasks: the 2026-07-28 wire, with the extension in its `_meta`.

    On that wire the SDK builds a fresh connection from each request's envelope, so
    `ctx.session.client_capabilities` is exactly this request's
    `_meta["io.modelcontextprotocol/clientCapabilities"]`.
    """
    if ctx.protocol_version not in MODERN:
        return False
    capabilities = ctx.session.client_capabilities
    return bool(capabilities and capabilities.extensions and TASKS_EXTENSION in capabilities.extensions)


# --- The task store ------------------------------------------------------------


@dataclass
class Task:
    """One task: its status, and what it ended with or is waiting for."""

    id: str
    created_at: datetime
    status: str = "working"
    last_updated_at: datetime = field(init=False)
    ttl_ms: int = TASK_TTL_MS
    poll_interval_ms: int = POLL_INTERVAL_MS
    result: dict[str, Any] | None = None  # completed: the CallToolResult
    error: dict[str, Any] | None = None  # failed: {code, message[, data]}
    pending: dict[str, dict[str, Any]] = field(default_factory=lambda: {})  # input_required: unanswered requests
    answers: dict[str, Any] = field(default_factory=lambda: {})  # this round's answers so far
    resumed: anyio.Event = field(default_factory=anyio.Event)  # set once every request is answered
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)  # the work's

    def __post_init__(self) -> None:
        self.last_updated_at = self.created_at

    @property
    def expires_at(self) -> datetime:
        return self.created_at + timedelta(milliseconds=self.ttl_ms)

    def move_to(self, status: str) -> None:
        self.status = status
        self.last_updated_at = datetime.now(timezone.utc)

    def fields(self) -> dict[str, Any]:
        """The task's own fields, as CreateTaskResult and tasks/get carry them."""
        return {
            "taskId": self.id,
            "status": self.status,
            "createdAt": iso(self.created_at),
            "lastUpdatedAt": iso(self.last_updated_at),
            "ttlMs": self.ttl_ms,
            "pollIntervalMs": self.poll_interval_ms,
        }

    def detailed(self) -> dict[str, Any]:
        """tasks/get's answer: the fields, plus what the status calls for, inlined."""
        body = {"resultType": "complete", **self.fields()}
        if self.status == "completed" and self.result is not None:
            body["result"] = self.result
        elif self.status == "failed" and self.error is not None:
            body["error"] = self.error
        elif self.status == "input_required":
            body["inputRequests"] = dict(self.pending)
        return body


# --- The extension -------------------------------------------------------------


class TaskIdParams(RequestParams):
    task_id: str


class TaskUpdateParams(TaskIdParams):
    # Values are checked only for the keys the task waits on: unknown keys are ignored.
    input_responses: dict[str, Any] = {}


ACK: dict[str, Any] = {"resultType": "complete"}


class TasksExtension(Extension):
    """`io.modelcontextprotocol/tasks` on the SDK's extension API.

    - `intercept_tool_call`: for a tool in `task_tools`, called by a request that
      declares the extension, stores a task, starts the real call (`call_next`) in the
      background and answers with the flat CreateTaskResult. Any other call passes through.
    - `methods`: `tasks/get`, `tasks/update`, `tasks/cancel`, admitted at 2026-07-28 only.

    A tool asks for input the way any 2026-07-28 tool does, by returning an
    `InputRequiredResult` (multi-round-trip). In a task that round trip happens inside
    the task instead: its `inputRequests` become the task's (status `input_required`),
    and once `tasks/update` has answered them all the tool is called again with
    `inputResponses` (and the `requestState` it returned), as a retry would carry them.

    The background work runs in a task group the extension owns: enter `running()`
    around the transport.
    """

    identifier = TASKS_EXTENSION

    def __init__(self, task_tools: Iterable[str]) -> None:
        self.task_tools = frozenset(task_tools)
        self.tasks: dict[str, Task] = {}
        self._task_group: anyio.abc.TaskGroup | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Host the tasks' background work for as long as this is entered."""
        async with anyio.create_task_group() as tg:
            self._task_group = tg
            try:
                yield
            finally:
                self._task_group = None
                tg.cancel_scope.cancel()

    def methods(self) -> list[MethodBinding]:
        return [
            MethodBinding("tasks/get", TaskIdParams, self.get, protocol_versions=MODERN),
            MethodBinding("tasks/update", TaskUpdateParams, self.update, protocol_versions=MODERN),
            MethodBinding("tasks/cancel", TaskIdParams, self.cancel, protocol_versions=MODERN),
        ]

    # --- tools/call

    async def intercept_tool_call(
        self, params: types.CallToolRequestParams, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        if params.name not in self.task_tools or not declares_tasks(ctx):
            return await call_next(ctx)
        if self._task_group is None:
            raise RuntimeError("TasksExtension.running() is not entered")
        self._forget_expired()
        task = Task(id=str(uuid.uuid4()), created_at=datetime.now(timezone.utc))
        self.tasks[task.id] = task  # stored before the answer leaves
        self._task_group.start_soon(self._work, task, params, ctx, call_next)
        return {"resultType": "task", **task.fields()}

    async def _work(
        self,
        task: Task,
        params: types.CallToolRequestParams,
        ctx: ServerRequestContext[Any, Any],
        call_next: CallNext,
    ) -> None:
        """Run the call to its end, answering its input rounds from tasks/update."""
        with task.scope:
            try:
                while True:
                    result = wire(await call_next(ctx))
                    if not spec_methods.is_input_required(result):
                        self._settle(task, "completed", result=spec_methods.serialize_server_result(
                            "tools/call", ctx.protocol_version, result
                        ))
                        return
                    await self._wait_for_answers(task, result["inputRequests"])
                    # `call_next` calls the tool with the params this interceptor got
                    # (SDK 2.3.0 has no way to pass others), so the retry's answers go there.
                    params.input_responses = INPUT_RESPONSES.validate_python(task.answers)
                    params.request_state = result.get("requestState")
            except MCPError as err:
                self._settle(task, "failed", error=err.error.model_dump(mode="json", exclude_none=True))
            except Exception:
                logger.exception("task %s crashed", task.id)
                self._settle(task, "failed", error={"code": types.INTERNAL_ERROR, "message": "Internal error"})
        if task.scope.cancelled_caught and task.status == "cancelled":
            stderr_marker(f"task {task.id} cancelled")

    async def _wait_for_answers(self, task: Task, requests: dict[str, Any]) -> None:
        if task.status in TERMINAL:
            await anyio.sleep_forever()  # cancelled meanwhile; the scope's cancel is on its way
        task.pending = dict(requests)
        task.answers = {}
        task.resumed = anyio.Event()
        task.move_to("input_required")
        await task.resumed.wait()

    @staticmethod
    def _settle(task: Task, status: str, *, result: dict[str, Any] | None = None, error: Any = None) -> None:
        if task.status in TERMINAL:
            return  # cancelled first
        task.result = result
        task.error = error
        task.pending = {}
        task.move_to(status)

    # --- tasks/*

    def _task(self, ctx: ServerRequestContext[Any, Any], params: TaskIdParams) -> Task:
        # The capability first: an undeclared request learns nothing about task ids.
        require_client_extension(ctx, TASKS_EXTENSION)
        self._forget_expired()
        task = self.tasks.get(params.task_id)
        if task is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown task: {params.task_id}")
        return task

    async def get(self, ctx: ServerRequestContext[Any, Any], params: TaskIdParams) -> dict[str, Any]:
        return self._task(ctx, params).detailed()

    async def update(self, ctx: ServerRequestContext[Any, Any], params: TaskUpdateParams) -> dict[str, Any]:
        task = self._task(ctx, params)
        if task.status != "input_required":
            return ACK
        answered = {key: value for key, value in params.input_responses.items() if key in task.pending}
        try:
            INPUT_RESPONSES.validate_python(answered)
        except ValidationError:
            raise MCPError(
                code=types.INVALID_PARAMS, message=f"Malformed input responses for {sorted(answered)}"
            ) from None
        for key, value in answered.items():
            task.answers[key] = value
            del task.pending[key]
        if not task.pending:
            task.move_to("working")
            task.resumed.set()
        return ACK

    async def cancel(self, ctx: ServerRequestContext[Any, Any], params: TaskIdParams) -> dict[str, Any]:
        task = self._task(ctx, params)
        if task.status not in TERMINAL:
            task.pending = {}
            task.move_to("cancelled")
            task.scope.cancel()
        return ACK

    def _forget_expired(self) -> None:
        now = datetime.now(timezone.utc)
        for task_id in [t.id for t in self.tasks.values() if t.expires_at <= now]:
            self.tasks.pop(task_id).scope.cancel()


# --- The server ------------------------------------------------------------------

TASK_TOOLS = ("slow_report", "confirm_archive", "broken_job")
tasks = TasksExtension(TASK_TOOLS)

mcp = MCPServer(
    name="switchboard-python-tasks-peer",
    version="1.0.0",
    instructions="Test server for Switchboard: tools that run as tasks.",
    log_level="WARNING",
    extensions=[tasks],
)

CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean"}},
    "required": ["confirm"],
}


def confirmed(answer: types.ElicitResult) -> bool:
    return answer.action == "accept" and (answer.content or {}).get("confirm") is True


# Text tools pass structured_output=False: MCPServer would otherwise publish an
# output schema `{"result": string}` for a `-> str` tool.


@mcp.tool(structured_output=False)
async def slow_report(seconds: float) -> str:
    """Wait `seconds`, then answer "Report ready after <seconds> s"."""
    await anyio.sleep(seconds)
    return f"Report ready after {seconds:g} s"


@mcp.tool(structured_output=False)
async def confirm_archive(name: str, ctx: Context) -> str | types.InputRequiredResult:
    """Ask "Archive <name>?" (a form {confirm: boolean}); "Archived <name>" if confirmed, else "Kept <name>"."""
    message = f"Archive {name}?"
    if ctx.protocol_version in MODERN:
        answer = (ctx.input_responses or {}).get("confirm")
        if answer is None:
            question = types.ElicitRequest(
                params=types.ElicitRequestFormParams(message=message, requested_schema=CONFIRM_SCHEMA)
            )
            return types.InputRequiredResult(input_requests={"confirm": question})
        if not isinstance(answer, types.ElicitResult):
            raise MCPError(code=types.INVALID_PARAMS, message="inputResponses.confirm is not an elicitation result")
    else:
        answer = await ctx.session.elicit_form(message, CONFIRM_SCHEMA, related_request_id=ctx.request_id)
    return f"Archived {name}" if confirmed(answer) else f"Kept {name}"


@mcp.tool(structured_output=False)
async def broken_job() -> str:
    """After 0.2 s, fail with JSON-RPC error -32603 "The job broke down"."""
    await anyio.sleep(0.2)
    raise MCPError(code=types.INTERNAL_ERROR, message="The job broke down")


# --- Transports --------------------------------------------------------------


async def serve(args: argparse.Namespace) -> None:
    async with tasks.running():
        if args.transport == "stdio":
            await mcp.run_stdio_async()
        else:
            app = mcp.streamable_http_app(host="127.0.0.1", json_response=args.json_response)
            await serve_http(app, args.port, "/mcp", args.log_level)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("transport", nargs="?", default="stdio", choices=["stdio", "streamable-http"])
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (0 = any free port)")
    parser.add_argument(
        "--json-response",
        action="store_true",
        help="streamable-http: answer each POST with one JSON body instead of an SSE stream",
    )
    parser.add_argument(
        "--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
    )
    args = parser.parse_args()

    logging.getLogger().setLevel(args.log_level)
    anyio.run(serve, args)


if __name__ == "__main__":
    main()
