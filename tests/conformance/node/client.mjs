// paneward's conformance client on the official TypeScript MCP SDK
// (@modelcontextprotocol/sdk, pinned in package-lock.json).
//
// Usage: node client.mjs INSTALL_DIR CASES.json -- SERVER_COMMAND [ARGS...]
// INSTALL_DIR holds the package.json and node_modules that ../install set up.
//
// Starts the server with the SDK's default environment (no locale, as real hosts do),
// lists every tool FIRST (the SDK checks structuredContent against a tool's
// outputSchema only for tools it has listed on this connection), then calls each case
// of CASES.json in order. This script judges nothing: it prints one JSON line per
// event, and tests/conformance/suite.rs compares them with tests/conformance/cases.json.
import { createRequire } from 'node:module';
import path from 'node:path';

// How long the handshake, a listing or one call may take before it counts as a hang.
const CALL_TIMEOUT_MS = 30_000;

const [installDir, casesPath, separator, ...command] = process.argv.slice(2);
if (!installDir || !casesPath || separator !== '--' || command.length === 0) {
  console.error('usage: node client.mjs INSTALL_DIR CASES.json -- SERVER_COMMAND [ARGS...]');
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(installDir), 'package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { McpError, ErrorCode } = require('@modelcontextprotocol/sdk/types.js');
const { readFileSync } = require('node:fs');

const emit = (event) => process.stdout.write(JSON.stringify(event) + '\n');
const options = { timeout: CALL_TIMEOUT_MS };

function firstText(result) {
  const block = (result.content ?? []).find((b) => b.type === 'text');
  return block ? block.text : null;
}

async function call(client, testCase) {
  const progress = [];
  const callOptions = { ...options };
  if (testCase.progress) callOptions.onprogress = (p) => progress.push(p);
  let cancelled = false;
  if (testCase.cancelAfterSeconds != null) {
    // Aborting makes the SDK send notifications/cancelled.
    const controller = new AbortController();
    callOptions.signal = controller.signal;
    setTimeout(() => {
      cancelled = true;
      controller.abort('conformance cancel');
    }, testCase.cancelAfterSeconds * 1000);
  }
  try {
    const result = await client.callTool({ name: testCase.tool, arguments: testCase.arguments }, undefined, callOptions);
    return {
      outcome: 'result',
      isError: result.isError === true,
      structuredContent: result.structuredContent ?? null,
      text: firstText(result),
      progress,
    };
  } catch (error) {
    if (cancelled) return { outcome: 'cancelled', progress };
    if (error instanceof McpError) {
      // The SDK throws an McpError of its own when structuredContent breaks the outputSchema.
      if (/structured content/i.test(error.message)) return { outcome: 'invalid-reply', detail: error.message };
      if (error.code === ErrorCode.RequestTimeout) return { outcome: 'timeout', detail: error.message };
      return { outcome: 'protocol-error', detail: `JSON-RPC error ${error.code}: ${error.message}` };
    }
    return { outcome: 'client-error', detail: String(error?.stack ?? error) };
  }
}

const cases = JSON.parse(readFileSync(casesPath, 'utf8'));
const client = new Client({ name: 'paneward-conformance-node', version: '0' });
const transport = new StdioClientTransport({ command: command[0], args: command.slice(1) });
await client.connect(transport, options);
emit({ event: 'connected', server: client.getServerVersion()?.name ?? null });
const names = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : undefined, options);
  names.push(...page.tools.map((tool) => tool.name));
  cursor = page.nextCursor;
} while (cursor);
emit({ event: 'listed', tools: names });
for (const testCase of cases) {
  emit({ event: 'called', tool: testCase.tool, case: testCase.case, ...(await call(client, testCase)) });
}
await client.close();
emit({ event: 'done' });
