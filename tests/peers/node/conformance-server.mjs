// A test peer: an MCP server written with the TypeScript SDK v2 (`@modelcontextprotocol/server`)
// that offers what the conformance suite's server scenarios read by fixed URI and find by
// their marks, so that those scenarios can be run against a gateway that keeps its
// servers' resource URIs (crates/host/tests/gateway_conformance.rs).
//
//   node conformance-server.mjs        over stdio
//
// Resources `test://static-text`, `test://static-binary` (a PNG), `test://watched-resource`
// (subscriptions taken), the template
// `test://template/{id}/data`; the tool `route`, whose argument `region` is mirrored into
// the `Mcp-Param-Region` header (`x-mcp-header`) over Streamable HTTP. In the 2026-07-28
// revision, the tools and the prompt the suite's `input-required-result-*` scenarios call,
// each asking what those scenarios expect through an `input_required` result (see
// `inputRequiredTools`).
import { McpServer, ResourceTemplate, inputRequired } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

// A 1x1 transparent PNG.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const asks = {
  name: (message = "What is your name?") => inputRequired.elicit({ message, requestedSchema: z.object({ name: z.string() }) }),
  sample: (text, maxTokens = 100) => ({
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: { type: "text", text } }], maxTokens },
  }),
  confirm: () => inputRequired.elicit({ message: "Please confirm", requestedSchema: z.object({ ok: z.boolean() }) }),
};

const text = (value) => ({ content: [{ type: "text", text: value }] });

// What each tool asks first (its `inputRequests`, and the `requestState` it keeps, if any),
// and what it answers once every key it asked has its response.
const inputRequiredTools = {
  test_input_required_result_elicitation: () => ({ inputRequests: { user_name: asks.name() } }),
  test_input_required_result_sampling: () => ({
    inputRequests: { sample_request: asks.sample("What is the capital of France?") },
  }),
  test_input_required_result_list_roots: () => ({ inputRequests: { roots_request: inputRequired.listRoots() } }),
  test_input_required_result_request_state: () => ({
    inputRequests: { confirm: asks.confirm() },
    requestState: "request-state",
  }),
  test_input_required_result_multiple_inputs: () => ({
    inputRequests: {
      user_name: asks.name(),
      greeting: asks.sample("Generate a greeting", 50),
      client_roots: inputRequired.listRoots(),
    },
    requestState: "multiple-inputs",
  }),
  test_input_required_result_tampered_state: () => ({
    inputRequests: { confirm: asks.confirm() },
    requestState: "tamper-test",
  }),
};

/** Round `n` (from 1) of the three-round tool: its question and its state. */
const multiRound = (n) =>
  n === 1
    ? { inputRequests: { step1: asks.name("Step 1: What is your name?") }, requestState: "round-1" }
    : {
        inputRequests: {
          step2: inputRequired.elicit({
            message: "Step 2: What is your favorite color?",
            requestedSchema: z.object({ color: z.string() }),
          }),
        },
        requestState: "round-2",
      };

function registerInputRequired(server) {
  for (const [name, ask] of Object.entries(inputRequiredTools)) {
    server.registerTool(name, { description: "Asks through an input_required result", inputSchema: z.object({}) }, async (_args, ctx) => {
      const asked = ask();
      const answered = Object.keys(asked.inputRequests).every((key) => ctx.mcpReq.inputResponses?.[key]);
      const stateKept = asked.requestState === undefined || ctx.mcpReq.requestState() === asked.requestState;
      return answered && stateKept ? text(`${name}: answered`) : inputRequired(asked);
    });
  }
  server.registerTool(
    "test_input_required_result_multi_round",
    { description: "Asks twice, then answers", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const responses = ctx.mcpReq.inputResponses ?? {};
      const state = ctx.mcpReq.requestState();
      if (state === "round-2" && responses.step2) return text("multi-round complete");
      return inputRequired(multiRound(state === "round-1" && responses.step1 ? 2 : 1));
    },
  );
  server.registerTool(
    "test_input_required_result_capabilities",
    { description: "Asks only what the client declared it can answer", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const declared = ctx.mcpReq.envelope?.["io.modelcontextprotocol/clientCapabilities"] ?? {};
      const inputRequests = {};
      if (declared.elicitation) inputRequests.elicit_input = asks.name();
      if (declared.sampling) inputRequests.sample_input = asks.sample("Sampling input");
      const answered = Object.keys(inputRequests).every((key) => ctx.mcpReq.inputResponses?.[key]);
      return answered ? text("capabilities respected") : inputRequired({ inputRequests });
    },
  );
  server.registerPrompt("test_input_required_result_prompt", { description: "Asks for its context" }, async (ctx) => {
    if (ctx.mcpReq.inputResponses?.user_context) {
      return { messages: [{ role: "user", content: { type: "text", text: "Prompt with context" } }] };
    }
    return inputRequired({
      inputRequests: {
        user_context: inputRequired.elicit({
          message: "What context should the prompt use?",
          requestedSchema: z.object({ context: z.string() }),
        }),
      },
    });
  });
}

function factory() {
  const server = new McpServer(
    { name: "conformance-peer", version: "2.4.0" },
    { capabilities: { tools: {}, resources: { subscribe: true }, prompts: {} } },
  );
  server.registerTool(
    "route",
    {
      description: "Says where a request for a region would go",
      inputSchema: z.object({
        region: z.string().meta({ "x-mcp-header": "Region" }).describe("The region"),
      }),
    },
    async ({ region }) => ({ content: [{ type: "text", text: `routed to ${region}` }] }),
  );
  server.registerResource(
    "static-text",
    "test://static-text",
    { mimeType: "text/plain" },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: "This is the content of the static text resource." }],
    }),
  );
  server.registerResource("static-binary", "test://static-binary", { mimeType: "image/png" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "image/png", blob: PNG }],
  }));
  server.registerResource("watched-resource", "test://watched-resource", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "Watched" }],
  }));
  server.registerResource(
    "template",
    new ResourceTemplate("test://template/{id}/data", { list: undefined }),
    { mimeType: "application/json" },
    async (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );
  registerInputRequired(server);
  server.server.setRequestHandler("resources/subscribe", async () => ({}));
  server.server.setRequestHandler("resources/unsubscribe", async () => ({}));
  return server;
}

serveStdio(factory, { legacy: "serve" });
