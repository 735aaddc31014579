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
// the `Mcp-Param-Region` header (`x-mcp-header`) over Streamable HTTP.
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

// A 1x1 transparent PNG.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function factory() {
  const server = new McpServer(
    { name: "conformance-peer", version: "2.4.0" },
    { capabilities: { tools: {}, resources: { subscribe: true } } },
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
  server.server.setRequestHandler("resources/subscribe", async () => ({}));
  server.server.setRequestHandler("resources/unsubscribe", async () => ({}));
  return server;
}

serveStdio(factory, { legacy: "serve" });
