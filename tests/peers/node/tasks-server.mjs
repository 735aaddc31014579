// A TypeScript SDK server (over stdio) whose one tool may run as a task
// (`execution.taskSupport: "optional"`), for the host's task handling:
//
//     node tasks-server.mjs
//
// `slow-report` takes `{ ms }`: as a task it asks to be polled only every 30 s, the most a
// client waits, and finishes after `ms` milliseconds, which the SDK tells the client at once
// (`notifications/tasks/status`).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks';
import { z } from 'zod';

const taskStore = new InMemoryTaskStore();
const server = new McpServer(
  { name: 'tasks-peer', version: '1.0.0' },
  {
    capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
    taskStore,
    taskMessageQueue: new InMemoryTaskMessageQueue(),
  },
);

const report = (ms) => ({ content: [{ type: 'text', text: `Report ready after ${ms} ms` }] });
const inputSchema = { ms: z.number().int().min(0).max(60000) };

server.experimental.tasks.registerToolTask(
  'slow-report',
  { description: 'Writes a report slowly; may run as a task.', inputSchema, execution: { taskSupport: 'optional' } },
  {
    createTask: async ({ ms }, extra) => {
      const task = await extra.taskStore.createTask({ ttl: 300000, pollInterval: 30000 });
      setTimeout(() => {
        extra.taskStore.storeTaskResult(task.taskId, 'completed', report(ms)).catch(console.error);
      }, ms);
      return { task };
    },
    getTask: async (args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  },
);

await server.connect(new StdioServerTransport());
