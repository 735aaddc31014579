// A TypeScript SDK server over Streamable HTTP (sessions) whose one tool must run as a task
// (`execution.taskSupport: "required"`), and whose tasks outlive the session that began
// them: a server that goes on running while its client quits and comes back, for the
// host's resumption of the tasks it left unfinished.
//
//     node tasks-http-server.mjs [PORT]      prints "listening on <url>" (PORT 0 or none:
//                                            a free one)
//
// `slow-report` takes `{ ms }` and finishes after `ms` milliseconds, as tasks-server.mjs's
// does. Every session shares one task store, which keeps each task for whoever asks after
// it (the SDK's store would keep it for the session that began it alone). A client that
// comes back in a new session hears of no change unasked, so the task asks to be polled
// every second.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks';
import { z } from 'zod';

const port = Number(process.argv[2] ?? 0);

// A task created without a session is found from any session.
class SharedTaskStore extends InMemoryTaskStore {
  createTask(taskParams, requestId, request) {
    return super.createTask(taskParams, requestId, request, undefined);
  }
}

const taskStore = new SharedTaskStore();
const taskMessageQueue = new InMemoryTaskMessageQueue();
const report = (ms) => ({ content: [{ type: 'text', text: `Report ready after ${ms} ms` }] });
const inputSchema = { ms: z.number().int().min(0).max(60000) };

// One server per session, all on the same tasks.
function sessionServer() {
  const server = new McpServer(
    { name: 'tasks-http-peer', version: '1.0.0' },
    {
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
      taskMessageQueue,
    },
  );
  server.experimental.tasks.registerToolTask(
    'slow-report',
    { description: 'Writes a report slowly, as a task.', inputSchema, execution: { taskSupport: 'required' } },
    {
      createTask: async ({ ms }, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 300000, pollInterval: 1000 });
        setTimeout(() => {
          // Kept before it is told; the session that began it may be gone by then.
          extra.taskStore.storeTaskResult(task.taskId, 'completed', report(ms)).catch(() => {});
        }, ms);
        return { task };
      },
      getTask: async (args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (args, extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
  return server;
}

const sessions = new Map();

const readBody = (req) =>
  new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      try {
        resolve(data ? JSON.parse(data) : undefined);
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });

const httpServer = http.createServer(async (req, res) => {
  try {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = id && sessions.get(id);
    if (id && !transport) {
      res.writeHead(404).end('no such session');
      return;
    }
    if (!transport) {
      if (req.method !== 'POST' || !isInitializeRequest(body)) {
        res.writeHead(400).end('no session');
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (opened) => sessions.set(opened, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await sessionServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  } catch (error) {
    console.error(error);
    if (!res.headersSent) res.writeHead(500).end(String(error));
  }
});

httpServer.listen(port, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${httpServer.address().port}/mcp`);
});
