// A test peer: an MCP server written with the TypeScript SDK v2 (`@modelcontextprotocol/server`)
// that offers what the conformance suite's server scenarios read by fixed URI and find by
// their marks, so that those scenarios can be run against a gateway that keeps its
// servers' resource URIs (crates/gateway/tests/it/gateway_conformance.rs).
//
//   node conformance-server.mjs        over stdio
//
// Resources `test://static-text`, `test://static-binary` (a PNG), `test://watched-resource`
// (subscriptions taken), the template
// `test://template/{id}/data`; the tool `route`, whose argument `region` is mirrored into
// the `Mcp-Param-Region` header (`x-mcp-header`) over Streamable HTTP. The tools and prompts
// of the suite's reference server that its `tools-call-*`, `prompts-get-*` and
// `elicitation-*` scenarios call by name, each doing what the scenario's text asks
// (`registerReference`). In the 2026-07-28 revision, the tools and the prompt the suite's
// `input-required-result-*` scenarios call, each asking what those scenarios expect through
// an `input_required` result (see `inputRequiredTools`). The diagnostic tools the suite's
// `server-stateless` checks call, and the tool of its `json-schema-2020-12` scenario
// (`registerDiagnostics`).
import {
  McpServer,
  ResourceTemplate,
  fromJsonSchema,
  inputRequired,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

// A 1x1 transparent PNG.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
// Eight samples of silence, 8 kHz mono, as WAV.
const WAV = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

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

const form = (message, properties, required) => ({
  method: "elicitation/create",
  params: { message, requestedSchema: { type: "object", properties, ...(required ? { required } : {}) } },
});

const titled = (values) => values.map(([value, title]) => ({ const: value, title }));

/** What the client answered to `request`, asked under `key`: in the 2026-07-28 revision, the
 * retry's `inputResponses` (none before it); in the earlier ones, asked over the session. */
async function answered(ctx, key, request) {
  if (!ctx.mcpReq.envelope) return ctx.mcpReq.send(request);
  return ctx.mcpReq.inputResponses?.[key];
}

/** A tool that asks `request` (built from its arguments) and says what was answered. */
function asking(server, name, inputSchema, request, says) {
  server.registerTool(name, { description: `Asks ${request({}).method}`, inputSchema }, async (args, ctx) => {
    const asked = request(args);
    const answer = await answered(ctx, "input", asked);
    return answer ? text(says(answer)) : inputRequired({ inputRequests: { input: asked } });
  });
}

const later = () => new Promise((resolve) => setTimeout(resolve, 50));

/** A tool that logs three messages as it runs (to a request that named a level). */
async function logs(_args, ctx) {
  await ctx.mcpReq.log("info", "Tool execution started");
  await later();
  await ctx.mcpReq.log("info", "Tool processing data");
  await later();
  await ctx.mcpReq.log("info", "Tool execution completed");
  return text("Logging tool done");
}

/** The input schema of the suite's `json-schema-2020-12` scenario, keyword for keyword. */
const SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

/** The tools the suite's `server-stateless` checks call to probe a server, and the tool whose
 * schema its `json-schema-2020-12` scenario reads back. */
function registerDiagnostics(server) {
  const none = z.object({});
  // Asks for sampling, which the SDK refuses with -32021 to a client that did not declare it.
  server.registerTool("test_missing_capability", { description: "Needs the client's sampling", inputSchema: none }, async (_args, ctx) =>
    ctx.mcpReq.inputResponses?.sample ? text("sampled") : inputRequired({ inputRequests: { sample: asks.sample("Sample") } }),
  );
  server.registerTool("test_streaming_elicitation", { description: "Asks for a name", inputSchema: none }, async (_args, ctx) =>
    ctx.mcpReq.inputResponses?.name ? text("named") : inputRequired({ inputRequests: { name: asks.name() } }),
  );
  server.registerTool("test_logging_tool", { description: "Logs as it runs", inputSchema: none }, logs);
  let changes = 0;
  server.registerTool("test_trigger_tool_change", { description: "Adds a tool", inputSchema: none }, async () => {
    changes += 1;
    server.registerTool(`added_tool_${changes}`, { description: "Added on request", inputSchema: none }, async () => text("added"));
    return text("tool added");
  });
  server.registerTool("test_trigger_prompt_change", { description: "Adds a prompt", inputSchema: none }, async () => {
    changes += 1;
    server.registerPrompt(`added_prompt_${changes}`, { description: "Added on request" }, async () => ({
      messages: [{ role: "user", content: { type: "text", text: "added" } }],
    }));
    return text("prompt added");
  });
  server.registerTool(
    "json_schema_2020_12_tool",
    { description: "Tool with JSON Schema 2020-12 features", inputSchema: fromJsonSchema(SCHEMA_2020_12) },
    async () => text("schema kept"),
  );
}

/** The suite's reference tools and prompts, as its scenarios describe them. */
function registerReference(server) {
  const none = z.object({});
  const tool = (name, result) =>
    server.registerTool(name, { description: `The suite's ${name}`, inputSchema: none }, async () => result);
  tool("test_simple_text", text("This is a simple text response for testing."));
  tool("test_image_content", { content: [{ type: "image", data: PNG, mimeType: "image/png" }] });
  tool("test_audio_content", { content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] });
  tool("test_embedded_resource", {
    content: [
      {
        type: "resource",
        resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
      },
    ],
  });
  tool("test_multiple_content_types", {
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: PNG, mimeType: "image/png" },
      {
        type: "resource",
        resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' },
      },
    ],
  });
  tool("test_error_handling", {
    isError: true,
    content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
  });
  server.registerTool("test_tool_with_logging", { description: "Logs as it runs", inputSchema: none }, logs);
  server.registerTool("test_tool_with_progress", { description: "Reports its progress", inputSchema: none }, async (_args, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await later();
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress, total: 100 } });
      }
    }
    return text("Progress tool done");
  });
  asking(
    server,
    "test_sampling",
    z.object({ prompt: z.string() }),
    ({ prompt }) => ({
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: prompt ?? "" } }], maxTokens: 100 },
    }),
    (reply) => `LLM response: ${reply.content?.text ?? JSON.stringify(reply.content)}`,
  );
  asking(
    server,
    "test_elicitation",
    z.object({ message: z.string() }),
    ({ message }) =>
      form(
        message ?? "",
        {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        },
        ["username", "email"],
      ),
    (reply) => `User response: action=${reply.action}, content=${JSON.stringify(reply.content ?? {})}`,
  );
  const elicited = (reply) => `Elicitation completed: action=${reply.action}, content=${JSON.stringify(reply.content ?? {})}`;
  asking(
    server,
    "test_elicitation_sep1034_defaults",
    none,
    () =>
      form("Please review your details", {
        name: { type: "string", default: "John Doe" },
        age: { type: "integer", default: 30 },
        score: { type: "number", default: 95.5 },
        status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
        verified: { type: "boolean", default: true },
      }),
    elicited,
  );
  asking(
    server,
    "test_elicitation_sep1330_enums",
    none,
    () =>
      form("Please choose", {
        untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
        titledSingle: {
          type: "string",
          oneOf: titled([["value1", "First Option"], ["value2", "Second Option"], ["value3", "Third Option"]]),
        },
        legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
        untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
        titledMulti: {
          type: "array",
          items: { anyOf: titled([["value1", "First Choice"], ["value2", "Second Choice"], ["value3", "Third Choice"]]) },
        },
      }),
    elicited,
  );

  const user = (content) => ({ role: "user", content });
  server.registerPrompt("test_simple_prompt", { description: "A prompt with no arguments" }, async () => ({
    messages: [user({ type: "text", text: "This is a simple prompt for testing." })],
  }));
  server.registerPrompt(
    "test_prompt_with_arguments",
    { description: "A prompt with two arguments", argsSchema: z.object({ arg1: z.string(), arg2: z.string() }) },
    async ({ arg1, arg2 }) => ({
      messages: [user({ type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` })],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_embedded_resource",
    { description: "A prompt that embeds a resource", argsSchema: z.object({ resourceUri: z.string() }) },
    async ({ resourceUri }) => ({
      messages: [
        user({
          type: "resource",
          resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
        }),
        user({ type: "text", text: "Please process the embedded resource above." }),
      ],
    }),
  );
  server.registerPrompt("test_prompt_with_image", { description: "A prompt with an image" }, async () => ({
    messages: [
      user({ type: "image", data: PNG, mimeType: "image/png" }),
      user({ type: "text", text: "Please analyze the image above." }),
    ],
  }));
}

function factory() {
  const server = new McpServer(
    { name: "conformance-peer", version: "2.4.0" },
    { capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: { listChanged: true }, logging: {} } },
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
  registerReference(server);
  registerInputRequired(server);
  registerDiagnostics(server);
  server.server.setRequestHandler("resources/subscribe", async () => ({}));
  server.server.setRequestHandler("resources/unsubscribe", async () => ({}));
  return server;
}

serveStdio(factory, { legacy: "serve" });
