// paneward's conformance client on the official TypeScript MCP SDK
// (@modelcontextprotocol/sdk, pinned in package-lock.json).
//
// Usage: node client.mjs INSTALL_DIR CASES.json -- SERVER_COMMAND [ARGS...]
// INSTALL_DIR holds the package.json and node_modules that ../install set up.
//
// Starts the server with the SDK's default environment (no locale, as real hosts do),
// lists every tool FIRST (the SDK checks structuredContent against a tool's
// outputSchema only for tools it has listed on this connection), then calls each case
// of CASES.json in order; a case with a `method` is a prompt case (`get` a prompt,
// `complete` a prompt argument), run after the prompts are listed. This script judges nothing: it prints one JSON line per
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
const { McpError, ErrorCode, ElicitRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const { readFileSync } = require('node:fs');

const emit = (event) => process.stdout.write(JSON.stringify(event) + '\n');
const options = { timeout: CALL_TIMEOUT_MS };

function firstText(result) {
  const block = (result.content ?? []).find((b) => b.type === 'text');
  return block ? block.text : null;
}

// How the person answers a question (elicitation/create) during the case being run: a
// case's `elicit` ("accept" or "decline"); no answer given is a decline.
const current = { elicit: null, asked: 0 };

async function call(client, testCase) {
  current.elicit = testCase.elicit ?? null;
  current.asked = 0;
  try {
    const result = await client.callTool({ name: testCase.tool, arguments: testCase.arguments }, undefined, options);
    return {
      outcome: 'result',
      asked: current.asked,
      isError: result.isError === true,
      structuredContent: result.structuredContent ?? null,
      text: firstText(result),
    };
  } catch (error) {
    if (error instanceof McpError) {
      // The SDK throws an McpError of its own when structuredContent breaks the outputSchema.
      if (/structured content/i.test(error.message)) return { outcome: 'invalid-reply', detail: error.message };
      if (error.code === ErrorCode.RequestTimeout) return { outcome: 'timeout', detail: error.message };
      return { outcome: 'protocol-error', detail: `JSON-RPC error ${error.code}: ${error.message}` };
    }
    return { outcome: 'client-error', detail: String(error?.stack ?? error) };
  }
}

async function promptCase(client, testCase) {
  try {
    if (testCase.method === 'get') {
      const result = await client.getPrompt({ name: testCase.prompt, arguments: testCase.arguments }, options);
      const texts = result.messages.filter((m) => m.content?.type === 'text').map((m) => m.content.text);
      return { outcome: 'result', text: texts.join('\n') };
    }
    const result = await client.complete(
      { ref: { type: 'ref/prompt', name: testCase.prompt }, argument: { name: testCase.argument, value: testCase.value } },
      options,
    );
    const { values, total, hasMore } = result.completion;
    return { outcome: 'result', values, total: total ?? null, hasMore: hasMore ?? null };
  } catch (error) {
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout) return { outcome: 'timeout', detail: error.message };
      return { outcome: 'protocol-error', detail: `JSON-RPC error ${error.code}: ${error.message}` };
    }
    return { outcome: 'client-error', detail: String(error?.stack ?? error) };
  }
}

const cases = JSON.parse(readFileSync(casesPath, 'utf8'));
const client = new Client({ name: 'paneward-conformance-node', version: '0' }, { capabilities: { elicitation: {} } });
client.setRequestHandler(ElicitRequestSchema, async () => {
  current.asked += 1;
  return current.elicit === 'accept' ? { action: 'accept', content: { allow: true } } : { action: 'decline' };
});
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
for (const testCase of cases.filter((c) => !c.method)) {
  emit({ event: 'called', tool: testCase.tool, case: testCase.case, ...(await call(client, testCase)) });
}
const promptCases = cases.filter((c) => c.method);
if (promptCases.length > 0) {
  const listed = await client.listPrompts(undefined, options);
  emit({ event: 'listed-prompts', prompts: listed.prompts.map((prompt) => prompt.name) });
  for (const testCase of promptCases) {
    emit({ event: 'prompt', case: testCase.case, ...(await promptCase(client, testCase)) });
  }
}
await client.close();
emit({ event: 'done' });
