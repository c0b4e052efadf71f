// The official Tasks requester (@modelcontextprotocol/ext-tasks, on the TypeScript SDK
// v2 client @modelcontextprotocol/client with versionNegotiation auto; both pinned in
// package-lock.json) driving paneward's run_command as a task, for
// tests/it/contract/conformance.rs.
//
// Usage: node tasks.mjs INSTALL_DIR PANE -- SERVER_COMMAND [ARGS...]
//
// The SDK client connects to one paneward; ext-tasks needs, for a 2026-07-28 server, a
// host dispatcher for the raw task traffic its SDK client cannot frame: here a second
// paneward on the same tmux server, so every tasks/get is answered by a process other
// than the one the SDK client talks to. It runs a command as a task to its end, then
// cancels a second one, and prints one JSON line per outcome; it judges nothing.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const [installDir, pane, separator, ...command] = process.argv.slice(2);
if (!installDir || !pane || separator !== '--' || command.length === 0) {
  console.error('usage: node tasks.mjs INSTALL_DIR PANE -- SERVER_COMMAND [ARGS...]');
  process.exit(2);
}
const modules = path.join(path.resolve(installDir), 'node_modules/@modelcontextprotocol');
const load = (file) => import(pathToFileURL(path.join(modules, file)).href);
const { Client } = await load('client/dist/index.mjs');
const { StdioClientTransport } = await load('client/dist/stdio.mjs');
const { createTaskSessionFromClient, resultFromTaskOutcome } = await load('ext-tasks/dist/client/index.js');
const say = (event) => console.log(JSON.stringify(event));

const client = new Client({ name: 'paneward-tasks', version: '0' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(new StdioClientTransport({ command: command[0], args: command.slice(1) }));
say({ event: 'connected', protocolVersion: client.getNegotiatedProtocolVersion(), extensions: client.getServerCapabilities()?.extensions ?? null });

const second = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
const waiting = new Map();
createInterface({ input: second.stdout }).on('line', (line) => {
  const message = JSON.parse(line);
  waiting.get(message.id)?.(message);
  waiting.delete(message.id);
});
let nextId = 1;
const methods = [];
function rawDispatch(request) {
  return new Promise((resolve) => {
    const id = nextId++;
    methods.push(request.method);
    waiting.set(id, (reply) => resolve({ ...reply, id: request.id }));
    second.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...request, id })}\n`);
  });
}
const session = createTaskSessionFromClient(client, {
  endpointId: 'paneward-conformance',
  rawDispatch,
  v2RequestFraming: {
    protocolVersion: '2026-07-28',
    clientInfo: { name: 'paneward-tasks', version: '0' },
    clientCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  },
});
try {
  const ran = await session.callTool('run_command', { pane_id: pane, command: 'sleep 2; echo late; exit 3' });
  const { outcome } = await ran.settle();
  const result = resultFromTaskOutcome(outcome);
  say({ event: 'completed', status: outcome.status, structured: result.structuredContent ?? null });

  const long = await session.callTool('run_command', { pane_id: pane, command: 'echo napping; sleep 60' });
  await long.cancel();
  const cancelled = await long.settle().catch((error) => ({ outcome: { error: String(error?.name) } }));
  say({ event: 'cancelled', outcome: cancelled.outcome });
  say({ event: 'methods', methods: [...new Set(methods)].sort() });
} catch (error) {
  say({ event: 'error', name: String(error?.name), message: String(error?.message ?? error) });
} finally {
  await session.close();
  await client.close();
  second.stdin.end();
}
