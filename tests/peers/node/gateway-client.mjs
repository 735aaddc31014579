// An agent on the official TypeScript SDK client, for the tests of Switchboard's Streamable HTTP
// server (crates/mcp/tests/http_server.rs). It walks one scenario and prints one JSON line:
//
//   node gateway-client.mjs URL TOKEN
//     {"client", "unauthorized", "forbidden", "tools", "echo", "logs", "progress", "cancelled",
//      "elicited", "whoami"}
//
// "unauthorized" and "forbidden" are the errors of a connection with a wrong token and of one
// from a foreign web origin; "cancelled" is the error of a call aborted after its first progress.

import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const sdkPackage = new URL("node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url);
const sdkVersion = JSON.parse(readFileSync(sdkPackage, "utf8")).version;
const [url, token] = process.argv.slice(2);
if (!url || !token) throw new Error("usage: node gateway-client.mjs URL TOKEN");

async function connect(headers) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "gateway-test", version: "0" }, { capabilities: { elicitation: {} } });
  const logs = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => ({
    action: "accept",
    content: { answer: `yes to ${request.params.message}` },
  }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params.data);
  });
  await client.connect(transport);
  return { client, transport, logs };
}

/** The HTTP status and error of a connection that should be refused ("connected" if it was not). */
async function refusal(headers) {
  try {
    const { client } = await connect(headers);
    await client.close();
    return "connected";
  } catch (error) {
    return `HTTP ${error?.code ?? "?"}: ${error?.message ?? error}`;
  }
}

const text = (result) => result.content.map((c) => c.text).join("");
const report = { client: `TypeScript SDK ${sdkVersion}` };
report.unauthorized = await refusal({ Authorization: "Bearer not-the-token" });
report.forbidden = await refusal({ Authorization: `Bearer ${token}`, Origin: "https://evil.example" });

const { client, transport, logs } = await connect({ Authorization: `Bearer ${token}` });
report.tools = (await client.listTools()).tools.map((t) => t.name);
report.echo = text(await client.callTool({ name: "echo", arguments: { text: "hello" } }));
await client.callTool({ name: "log", arguments: { text: "a line for the log" } });
report.logs = logs;
const progress = [];
await client.callTool({ name: "count", arguments: { steps: 3 } }, undefined, {
  onprogress: (p) => progress.push(p.progress),
});
report.progress = progress;
const abort = new AbortController();
try {
  await client.callTool({ name: "wait", arguments: {} }, undefined, {
    signal: abort.signal,
    onprogress: () => abort.abort("the agent gave up"),
  });
  report.cancelled = "not cancelled";
} catch (error) {
  report.cancelled = String(error?.message ?? error);
}
report.elicited = text(await client.callTool({ name: "ask", arguments: {} }));
report.whoami = text(await client.callTool({ name: "whoami", arguments: {} }));
await transport.terminateSession();
await client.close();
console.log(JSON.stringify(report));
