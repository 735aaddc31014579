// A test peer: an MCP server with an interface (MCP Apps), written with the extension's own
// SDK: the server's `registerAppTool` and `registerAppResource`, and the `App` class in its
// view. The view has a button for every message a view may send, the refused ones too, and
// one that probes its sandbox; each writes what the host answered as a line of `#log`
// (`<li data-action="…">`), so that a test reads what the app was told.
//
//   node apps-server.mjs --stdio
//
// Tools: `board` (its view is `ui://board/view.html`; the model and the app may call it),
// `refresh` (for the app only), `models_only` (for models only). Resources: the view, and
// `board://notes`. The view may connect to https://allowed.example alone, and to the
// domain `BOARD_CONNECT` names too; `BOARD_VARIANT` is written into it, so that a test
// can start the server with another view than before.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import * as z from "zod";

const VIEW = "ui://board/view.html";
const CONNECT = ["https://allowed.example", ...(process.env.BOARD_CONNECT ? [process.env.BOARD_CONNECT] : [])];

/** The SDK's `App`, bundled with what it needs, as a classic global for the view's script. */
function appBundle() {
  const require = createRequire(import.meta.url);
  const main = require.resolve("@modelcontextprotocol/ext-apps");
  const bundle = readFileSync(main.replace(/app\.js$/, "app-with-deps.js"), "utf8");
  const exports = bundle.match(/export\{([^}]*)\};?\s*$/);
  if (!exports) throw new Error("the ext-apps bundle ends with no export list");
  const names = exports[1].split(",").map((pair) => pair.trim().split(/\s+as\s+/));
  const global = names.map(([local, name]) => `${name ?? local}:${local}`).join(",");
  return `${bundle.slice(0, exports.index)}\nglobalThis.ExtApps={${global}};`;
}

const SCRIPT = `
const { App } = globalThis.ExtApps;
const app = new App({ name: "board-view", version: "1.0.0" }, { availableDisplayModes: ["inline", "fullscreen"] });
const log = (action, text) => {
  const line = document.createElement("li");
  line.dataset.action = action;
  line.textContent = action + ": " + text;
  document.getElementById("log").append(line);
};
const said = (result) => (result.content ?? []).map((c) => c.text ?? c.type).join(" ");
const contentsOf = (read) => (read.contents ?? []).map((c) => c.text ?? "(blob)").join(" ");
const attempt = (action, work) => work().then((text) => log(action, text), (err) => log(action, "error: " + (err?.message ?? err)));
const show = (id, text) => (document.getElementById(id).textContent = text);

app.ontoolinput = (params) => show("input", JSON.stringify(params.arguments ?? {}));
app.ontoolinputpartial = (params) => show("partial", JSON.stringify(params.arguments ?? {}));
app.ontoolresult = (result) => show("result", said(result));
app.ontoolcancelled = (params) => show("cancelled", params.reason ?? "cancelled");
app.onhostcontextchanged = (context) => context.displayMode && show("mode", context.displayMode);
app.onteardown = async () => {
  log("teardown", "asked");
  return {};
};

const actions = {
  "call-refresh": () => app.callServerTool({ name: "refresh", arguments: {} }).then((r) => (r.isError ? "tool error: " : "") + said(r)),
  "call-models-only": () => app.callServerTool({ name: "models_only", arguments: {} }).then(said),
  "read-own": () => app.readServerResource({ uri: "board://notes" }).then(contentsOf),
  "read-other": () => app.readServerResource({ uri: "demo://readme" }).then(contentsOf),
  "open-web": () => app.openLink({ url: "https://example.com/board" }).then((r) => "isError=" + Boolean(r.isError)),
  "open-file": () => app.openLink({ url: "file:///etc/passwd" }).then((r) => "isError=" + Boolean(r.isError)),
  download: () =>
    app
      .downloadFile({ contents: [{ type: "resource", resource: { uri: "board://export/board.csv", mimeType: "text/csv", text: "topic\\nweather\\n" } }] })
      .then((r) => "isError=" + Boolean(r.isError)),
  message: () => app.sendMessage({ role: "user", content: [{ type: "text", text: "Summarise the board" }] }).then((r) => (r.isError ? "isError" : "sent")),
  context: () => app.updateModelContext({ content: [{ type: "text", text: "The board shows 3 cards" }] }).then(() => "told"),
  fullscreen: () => app.requestDisplayMode({ mode: "fullscreen" }).then((r) => r.mode),
  inline: () => app.requestDisplayMode({ mode: "inline" }).then((r) => r.mode),
  probe: async () => {
    // Each probe's outcome, written as it comes; one that never settles says so.
    const outcome = async (what, work) => {
      const late = new Promise((settle) => setTimeout(() => settle("no answer"), 5000));
      const said = await Promise.race([
        Promise.resolve().then(work).then(() => "reached", (err) => "blocked (" + (err?.name ?? err) + ")"),
        late,
      ]);
      log("probe-" + what, said);
      return what + " " + said;
    };
    const others = [];
    for (let i = 0; i < window.parent.frames.length; i++) {
      const frame = window.parent.frames[i];
      if (frame !== window) others.push(frame);
    }
    const results = [
      await outcome("host-window", () => window.parent.document.title),
      await outcome("host-ipc", () => {
        const internals = window.parent.__TAURI_INTERNALS__;
        if (!internals) throw new Error("none");
        return internals.invoke("servers");
      }),
      await outcome("own-ipc", () => {
        if (!window.__TAURI_INTERNALS__) throw new Error("none");
      }),
      await outcome("ipc-scheme", () => fetch("ipc://localhost/servers", { method: "POST" })),
      await outcome("ipc-http", () => fetch("http://ipc.localhost/servers", { method: "POST" })),
      await outcome("outside-csp", () => fetch("https://outside.example/")),
      await outcome("host-origin", () => fetch(document.referrer || "tauri://localhost/")),
      await outcome("other-apps", () => {
        if (others.length === 0) throw new Error("no other app to reach");
        return others.map((frame) => frame.document.body.innerHTML);
      }),
    ];
    return results.join(", ") + " (" + others.length + " other frames)";
  },
};
for (const [action, work] of Object.entries(actions)) {
  const button = document.createElement("button");
  button.id = action;
  button.textContent = action;
  button.onclick = () => attempt(action, work);
  document.getElementById("actions").append(button);
}
app.connect().then(() => show("mode", app.getHostContext()?.displayMode ?? "unknown"), (err) => log("connect", "error: " + err.message));
`;

const HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Board</title>
<style>body{font:14px sans-serif;margin:8px} button{margin:2px} dd{margin:0 0 4px 0}</style>
</head><body>
<h1>Board</h1>
<p id="variant">${process.env.BOARD_VARIANT ?? ""}</p>
<dl><dt>Input</dt><dd id="input">none</dd><dt>Partial</dt><dd id="partial">none</dd><dt>Result</dt><dd id="result">none</dd>
<dt>Cancelled</dt><dd id="cancelled">no</dd><dt>Mode</dt><dd id="mode">unknown</dd></dl>
<div id="actions"></div>
<ol id="log"></ol>
<script>${appBundle()}</script>
<script>${SCRIPT}</script>
</body></html>`;

let refreshed = 0;

function factory() {
  const server = new McpServer({ name: "apps-peer", version: "1.0.0" }, { capabilities: { tools: {}, resources: {} } });
  registerAppTool(
    server,
    "board",
    {
      title: "Board",
      description: "Shows a board of cards about a topic",
      inputSchema: z.object({ topic: z.string().describe("What the board is about") }),
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: VIEW } },
    },
    async ({ topic }) => ({
      content: [{ type: "text", text: `Board about ${topic}` }],
      structuredContent: { topic, cards: 3 },
    }),
  );
  registerAppTool(
    server,
    "refresh",
    {
      description: "Refreshes the board (for its view only)",
      inputSchema: z.object({}),
      _meta: { ui: { resourceUri: VIEW, visibility: ["app"] } },
    },
    async () => ({ content: [{ type: "text", text: `refreshed ${++refreshed}` }] }),
  );
  registerAppTool(
    server,
    "models_only",
    {
      description: "A tool for models, never for the view",
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: VIEW, visibility: ["model"] } },
    },
    async () => ({ content: [{ type: "text", text: "for models" }] }),
  );
  registerAppResource(
    server,
    "Board view",
    VIEW,
    { description: "The board's interface", _meta: { ui: { csp: { connectDomains: CONNECT }, prefersBorder: true } } },
    async () => ({
      contents: [{ uri: VIEW, mimeType: RESOURCE_MIME_TYPE, text: HTML, _meta: { ui: { csp: { connectDomains: CONNECT } } } }],
    }),
  );
  server.registerResource("notes", "board://notes", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "Three cards on the board" }],
  }));
  return server;
}

if (process.argv.includes("--stdio")) {
  serveStdio(factory, { legacy: "serve" });
} else {
  console.error("usage: apps-server.mjs --stdio");
  process.exit(2);
}
