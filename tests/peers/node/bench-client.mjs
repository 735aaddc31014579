// Benchmark client on the official TypeScript SDK (@modelcontextprotocol/sdk), measured beside
// Switchboard's engine. The Rust benchmark (crates/mcp/benches/echo.rs) runs it against the
// same server as its own client and reads the one JSON line it prints on stdout:
//
//   node bench-client.mjs echo --calls N --in-flight K --text T (--http URL | --stdio CMD ARG...)
//     {"client": ..., "sequential": {"latencies_us": [...], "wall_s": s, "cpu_s": s},
//      "concurrent": {"latencies_us": [...], "wall_s": s, "cpu_s": s}}
//
//   node bench-client.mjs read --uri URI (--http URL | --stdio CMD ARG...)
//     {"client": ..., "read": {"bytes": n, "seconds": s, "rss_before": b, "peak_rss": b}}
//
// CPU time is this process's (user + system, every thread); memory is its own too (VmRSS
// before the read, VmHWM after it), as the other clients report theirs.

import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const sdkPackage = new URL("node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url);
const sdkVersion = JSON.parse(readFileSync(sdkPackage, "utf8")).version;
const CLIENT = `TypeScript SDK (${sdkVersion}, Node ${process.versions.node})`;
const WARM_UP = 200;
// The SDK refuses a stdio message over 10 MiB by default; allow what Switchboard's engine does.
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

function parseArgs(argv) {
  const args = { mode: argv[0], calls: 3000, inFlight: 64, text: "The quick brown fox jumps over the lazy dog" };
  for (let i = 1; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--stdio") {
      // Everything after --stdio is the server's command line.
      args.stdio = argv.slice(i + 1);
      break;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--calls") args.calls = Number(value);
    else if (flag === "--in-flight") args.inFlight = Number(value);
    else if (flag === "--text") args.text = value;
    else if (flag === "--uri") args.uri = value;
    else if (flag === "--http") args.http = value;
    else throw new Error(`unknown argument ${flag}`);
  }
  if (!["echo", "read"].includes(args.mode)) throw new Error("the mode is echo or read");
  if (!args.http === !args.stdio?.length) throw new Error("give one of --http URL or --stdio CMD ARG...");
  if (args.mode === "read" && !args.uri) throw new Error("read needs --uri");
  return args;
}

/** VmRSS and VmHWM of this process, in bytes. */
function memory() {
  const fields = {};
  for (const line of readFileSync("/proc/self/status", "utf8").split("\n")) {
    const [key, value] = line.split(":");
    if (key === "VmRSS" || key === "VmHWM") fields[key] = Number.parseInt(value, 10) * 1024;
  }
  return fields;
}

async function connect(args) {
  const transport = args.http
    ? new StreamableHTTPClientTransport(new URL(args.http))
    : new StdioClientTransport({
        command: args.stdio[0],
        args: args.stdio.slice(1),
        maxBufferSize: MAX_MESSAGE_BYTES,
      });
  const client = new Client({ name: "switchboard-bench", version: "0" });
  await client.connect(transport);
  return { client, transport };
}

const now = () => process.hrtime.bigint();
const micros = (from, to) => Number(to - from) / 1e3;

async function call(client, text) {
  const started = now();
  const result = await client.callTool({ name: "echo", arguments: { text } });
  const ended = now();
  if (result.isError) throw new Error(`echo failed: ${JSON.stringify(result)}`);
  return micros(started, ended);
}

/** A block's figures: latencies, wall time and this process's CPU time since `started`. */
function run(latencies, started, cpu) {
  const used = process.cpuUsage(cpu);
  return { latencies_us: latencies, wall_s: micros(started, now()) / 1e6, cpu_s: (used.user + used.system) / 1e6 };
}

async function sequential(client, calls, text) {
  const [started, cpu] = [now(), process.cpuUsage()];
  const latencies = [];
  for (let i = 0; i < calls; i++) latencies.push(await call(client, text));
  return run(latencies, started, cpu);
}

async function concurrent(client, calls, inFlight, text) {
  const latencies = [];
  let remaining = calls;
  // A fixed pool of workers keeps exactly `inFlight` calls outstanding until the last ones.
  const worker = async () => {
    while (remaining > 0) {
      remaining--;
      latencies.push(await call(client, text));
    }
  };
  const [started, cpu] = [now(), process.cpuUsage()];
  await Promise.all(Array.from({ length: Math.min(inFlight, calls) }, worker));
  return run(latencies, started, cpu);
}

async function echo(client, args) {
  await sequential(client, WARM_UP, args.text);
  return {
    client: CLIENT,
    sequential: await sequential(client, args.calls, args.text),
    concurrent: await concurrent(client, args.calls, args.inFlight, args.text),
  };
}

async function read(client, args) {
  const before = memory().VmRSS;
  const started = now();
  const result = await client.readResource({ uri: args.uri });
  const seconds = micros(started, now()) / 1e6;
  const peak = memory().VmHWM;
  const bytes = result.contents.reduce((sum, c) => sum + Buffer.byteLength(c.text ?? ""), 0);
  return { client: CLIENT, read: { bytes, seconds, rss_before: before, peak_rss: peak } };
}

const args = parseArgs(process.argv.slice(2));
const { client, transport } = await connect(args);
const figures = await (args.mode === "echo" ? echo : read)(client, args);
if (args.http) await transport.terminateSession();
await client.close();
process.stdout.write(`${JSON.stringify(figures)}\n`);
