// A test peer: an agent on the official TypeScript SDK client (@modelcontextprotocol/sdk)
// that reaches Switchboard's gateway the way a coding agent does, by starting a stdio MCP
// server (the bridge). The Rust tests drive it with one JSON command per line on stdin and
// read one JSON line per outcome on stdout; gateway_agent.py speaks the same lines.
//
//   node gateway-agent.mjs [--answers] [--roots URI,...] -- COMMAND ARG...
//   node gateway-agent.mjs [--answers] [--roots URI,...] --http URL TOKEN
//
// --answers declares sampling and form elicitation and answers them with fixed content (see
// ANSWERS); --roots declares roots and lists these. Each request from the gateway is said
// as {"event": "asked", "method"} before it is answered.
//
// Commands ({"op": ..., "id": ...}): list_tools, call_tool {name, arguments} (answered when
// the call ends; its progress reported on the way), cancel {call} (the call of that id),
// call_tool_as_task {name, arguments, ttl} (a task-augmented call, followed by the SDK's
// callToolStream: each state of the task said as {"event": "task", "call", "task", "status"}),
// cancel_task {call} (tasks/cancel for the task that call became), get_task {task}
// (tasks/get of that task id),
// list_resources, read_resource {uri}, subscribe {uri}, unsubscribe {uri}, list_prompts,
// get_prompt {name, arguments}, set_roots {uris} (lists those from now on, and says
// roots/list_changed), silent (answers no request of the gateway's from now on), close.
// Outcomes: {"id", "ok": result} or {"id", "error": message}; {"event": "connected"} or
// {"event": "connect_failed", "error"} first; {"event": "tools_changed"},
// {"event": "progress", "call", "progress"}, {"event": "resource_updated", "uri"} as they come.
import { readFileSync } from "node:fs";
import readline from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

// What it answers, the same as gateway_agent.py.
const ANSWERS = JSON.parse(readFileSync(new URL("../gateway-answers.json", import.meta.url), "utf8"));

const http = process.argv.indexOf("--http");
const dash = process.argv.indexOf("--");
const [command, ...args] = process.argv.slice(dash + 1);
const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

const answers = process.argv.includes("--answers");
const rootsAt = process.argv.indexOf("--roots");
let roots = rootsAt >= 0 ? process.argv[rootsAt + 1].split(",").filter(Boolean) : null;
let silent = false;

const capabilities = {};
if (answers) Object.assign(capabilities, { sampling: {}, elicitation: { form: {} } });
if (roots) capabilities.roots = { listChanged: true };
const client = new Client({ name: "gateway-agent-ts", version: "1.0.0" }, { capabilities });
// Says what the gateway asked, then answers it (or never does, once silent).
const answering = (method, answer) => () => {
  say({ event: "asked", method });
  return silent ? new Promise(() => {}) : answer();
};
if (answers) {
  client.setRequestHandler(CreateMessageRequestSchema, answering("sampling/createMessage", () => ANSWERS.sampling));
  client.setRequestHandler(ElicitRequestSchema, answering("elicitation/create", () => ANSWERS.elicitation));
}
if (roots) {
  client.setRequestHandler(
    ListRootsRequestSchema,
    answering("roots/list", () => ({ roots: roots.map((uri) => ({ uri })) })),
  );
}
client.setNotificationHandler(ToolListChangedNotificationSchema, () => say({ event: "tools_changed" }));
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => say({ event: "resource_updated", uri: n.params.uri }));
const transport =
  http >= 0
    ? new StreamableHTTPClientTransport(new URL(process.argv[http + 1]), {
        requestInit: { headers: { Authorization: `Bearer ${process.argv[http + 2]}` } },
      })
    : new StdioClientTransport({ command, args, stderr: "inherit" });
try {
  await client.connect(transport);
  say({ event: "connected", server: client.getServerVersion()?.name });
} catch (error) {
  say({ event: "connect_failed", error: String(error?.message ?? error) });
  process.exit(0);
}

const calls = new Map();
// The task each task-augmented call became, by the call's id.
const tasks = new Map();
// Long calls wait for the person: no timeout of the SDK's own cuts them short.
const patient = { timeout: 600_000 };

async function perform(command) {
  switch (command.op) {
    case "list_tools":
      return client.listTools();
    case "call_tool": {
      const abort = new AbortController();
      calls.set(command.id, abort);
      const onprogress = (p) => say({ event: "progress", call: command.id, progress: p.progress });
      try {
        return await client.callTool({ name: command.name, arguments: command.arguments ?? {} }, undefined, {
          ...patient,
          signal: abort.signal,
          onprogress,
        });
      } finally {
        calls.delete(command.id);
      }
    }
    case "call_tool_as_task": {
      const params = { name: command.name, arguments: command.arguments ?? {} };
      const stream = client.experimental.tasks.callToolStream(params, CallToolResultSchema, {
        ...patient,
        task: { ttl: command.ttl },
      });
      for await (const message of stream) {
        if (message.type === "taskCreated" || message.type === "taskStatus") {
          tasks.set(command.id, message.task.taskId);
          say({ event: "task", call: command.id, task: message.task.taskId, status: message.task.status });
        } else if (message.type === "result") {
          return message.result;
        } else if (message.type === "error") {
          throw message.error;
        }
      }
      throw new Error("the task's stream ended with no result");
    }
    case "cancel_task":
      return client.experimental.tasks.cancelTask(tasks.get(command.call));
    case "get_task":
      return client.experimental.tasks.getTask(command.task);
    case "cancel":
      calls.get(command.call)?.abort("the agent gave up");
      return {};
    case "list_resources":
      return client.listResources();
    case "read_resource":
      return client.readResource({ uri: command.uri });
    case "subscribe":
      return client.subscribeResource({ uri: command.uri });
    case "unsubscribe":
      return client.unsubscribeResource({ uri: command.uri });
    case "list_prompts":
      return client.listPrompts();
    case "get_prompt":
      return client.getPrompt({ name: command.name, arguments: command.arguments ?? {} });
    case "set_roots":
      roots = command.uris;
      await client.sendRootsListChanged();
      return {};
    case "silent":
      silent = true;
      return {};
    case "close":
      await client.close();
      process.exit(0);
    default:
      throw new Error(`unknown op ${command.op}`);
  }
}

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const command = JSON.parse(line);
  perform(command).then(
    (ok) => say({ id: command.id, ok }),
    (error) => say({ id: command.id, error: String(error?.message ?? error) }),
  );
}
await client.close();
