// A test peer: an MCP server of the 2026-07-28 revision, written with the TypeScript SDK v2
// (`@modelcontextprotocol/server`), which serves both eras from one factory the way real
// servers of that SDK do.
//
//   node modern-server.mjs --stdio [--modern-only]
//   node modern-server.mjs --http  [--modern-only]   prints "listening on <url>"
//
// `--modern-only` refuses 2025-era openings (`initialize`), as a server that speaks only the
// stateless revision does. Tools: `echo`, `add` (structured output), `ask_name` (asks the
// person through an `input_required` result), `toggle_extra_tool` (the tool list changes);
// resources `modern://readme` and the template `modern://greeting/{name}`; the prompt
// `greet` with completion of its argument; lists cached for 60 s.
import http from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import {
  McpServer,
  ResourceTemplate,
  acceptedContent,
  completable,
  createMcpHandler,
  inputRequired,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

const args = new Set(process.argv.slice(2));
const modernOnly = args.has("--modern-only");
const NAMES = ["Ada", "Alan", "Grace"];
const nameSchema = z.object({ name: z.string().describe("Your name") });

// Kept outside the factory: a stateless server builds an instance per request.
let extraTool = false;
const changed = { tools: () => {} };

function factory() {
  const server = new McpServer(
    { name: "modern-peer", version: "2.4.0" },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        prompts: { listChanged: true },
        completions: {},
      },
      cacheHints: { "tools/list": { ttlMs: 60_000 } },
    },
  );
  server.registerTool(
    "echo",
    { title: "Echo", description: "Returns the text it is given", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    "ask_name",
    { title: "Ask a name", description: "Asks the person for their name, then greets them", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "name", nameSchema);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { name: inputRequired.elicit({ message: "What is your name?", requestedSchema: nameSchema }) },
        });
      }
      return { content: [{ type: "text", text: `Hello, ${answer.name}!` }] };
    },
  );
  server.registerTool(
    "toggle_extra_tool",
    { description: "Adds the tool `extra`, or takes it away", inputSchema: z.object({}) },
    async () => {
      extraTool = !extraTool;
      changed.tools(server);
      return { content: [{ type: "text", text: extraTool ? "extra added" : "extra removed" }] };
    },
  );
  if (extraTool) {
    server.registerTool("extra", { description: "Here only after toggle_extra_tool" }, async () => ({
      content: [{ type: "text", text: "extra" }],
    }));
  }
  server.registerResource("readme", "modern://readme", { title: "Read me", mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "A server of the 2026-07-28 revision." }],
  }));
  server.registerResource(
    "greeting",
    new ResourceTemplate("modern://greeting/{name}", {
      list: undefined,
      complete: { name: (value) => NAMES.filter((n) => n.startsWith(value)) },
    }),
    { mimeType: "text/plain" },
    async (uri, { name }) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `Hello, ${name}!` }] }),
  );
  server.registerPrompt(
    "greet",
    {
      description: "A greeting for someone",
      argsSchema: z.object({ name: completable(z.string(), (value) => NAMES.filter((n) => n.startsWith(value))) }),
    },
    ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: `Please greet ${name}.` } }] }),
  );
  return server;
}

if (args.has("--http")) {
  const handler = createMcpHandler(factory, { legacy: modernOnly ? "reject" : "stateless" });
  changed.tools = () => handler.notify.toolsChanged();
  const node = toNodeHandler(handler);
  const server = http.createServer((req, res) => void node(req, res));
  server.listen(0, "127.0.0.1", () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}/mcp`);
  });
} else if (args.has("--stdio")) {
  // Over stdio one instance serves the connection: it tells its own client.
  changed.tools = (server) => void server.sendToolListChanged();
  serveStdio(factory, { legacy: modernOnly ? "reject" : "serve" });
} else {
  console.error("usage: modern-server.mjs --stdio|--http [--modern-only]");
  process.exit(2);
}
