// paneward's conformance client on the official TypeScript MCP SDK
// (@modelcontextprotocol/sdk, pinned in package-lock.json).
//
// Usage: node client.mjs INSTALL_DIR CASES.json -- SERVER_COMMAND [ARGS...]
//        node client.mjs INSTALL_DIR CASES.json -- --url URL   (Streamable HTTP; the
//        bearer token, if any, from PANEWARD_CONFORMANCE_TOKEN)
// INSTALL_DIR holds the package.json and node_modules that ../install set up.
//
// Starts the server with the SDK's default environment (no locale, as real hosts do),
// lists every tool FIRST (the SDK checks structuredContent against a tool's
// outputSchema only for tools it has listed on this connection), then calls each case
// of CASES.json: the prompt cases (those with a `method`: `get` a prompt, `complete` a
// prompt argument) after listing the prompts, then the resource cases (list, read,
// subscribe and wait for the update, complete), then the tool cases in order (last,
// since the last may end the fixture). This script judges nothing: it prints one JSON line per
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
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { McpError, ErrorCode, ElicitRequestSchema, ResourceUpdatedNotificationSchema } = require('@modelcontextprotocol/sdk/types.js');
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
      asked: current.asked,
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

// The URIs of notifications/resources/updated received, and who waits for one.
const updated = [];
const waiting = [];
function updateOf(uri) {
  if (updated.includes(uri)) return Promise.resolve();
  return new Promise((resolve) => waiting.push({ uri, resolve }));
}

async function resourceStep(client, testCase) {
  switch (testCase.action) {
    case 'list': {
      const resources = await client.listResources(undefined, options);
      const templates = await client.listResourceTemplates(undefined, options);
      const listed = resources.resources.map((r) => [r.name, r.uri]);
      listed.push(...templates.resourceTemplates.map((t) => [t.name, t.uriTemplate]));
      return JSON.stringify(listed);
    }
    case 'read': {
      const result = await client.readResource({ uri: testCase.uri }, options);
      return result.contents.map((c) => c.text ?? '').join('\n');
    }
    case 'subscribe': {
      await client.subscribeResource({ uri: testCase.uri }, options);
      const told = updateOf(testCase.uri);
      await client.callTool({ name: testCase.trigger.tool, arguments: testCase.trigger.arguments }, undefined, options);
      let timer;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no update of ${testCase.uri} within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
      });
      try {
        await Promise.race([told, late]);
      } finally {
        clearTimeout(timer);
      }
      await client.unsubscribeResource({ uri: testCase.uri }, options);
      return `updated ${testCase.uri}`;
    }
    case 'complete': {
      const params = { ref: { type: 'ref/resource', uri: testCase.uri }, argument: testCase.argument };
      if (testCase.context) params.context = { arguments: testCase.context };
      const result = await client.complete(params, options);
      return `,${result.completion.values.join(',')},`;
    }
    default:
      throw new Error(`unknown action ${testCase.action}`);
  }
}

async function resource(client, testCase) {
  try {
    return { outcome: 'result', text: await resourceStep(client, testCase) };
  } catch (error) {
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout) return { outcome: 'timeout', detail: error.message };
      return { outcome: 'protocol-error', code: error.code, detail: error.message };
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

const allCases = JSON.parse(readFileSync(casesPath, 'utf8'));
const cases = allCases.tools;
const client = new Client({ name: 'paneward-conformance-node', version: '0' }, { capabilities: { elicitation: {} } });
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
  const { uri } = notification.params;
  updated.push(uri);
  for (const waiter of waiting.filter((w) => w.uri === uri)) waiter.resolve();
});
client.setRequestHandler(ElicitRequestSchema, async () => {
  current.asked += 1;
  return current.elicit === 'accept' ? { action: 'accept', content: { allow: true } } : { action: 'decline' };
});
function transportFor(command) {
  if (command[0] !== '--url') return new StdioClientTransport({ command: command[0], args: command.slice(1) });
  const token = process.env.PANEWARD_CONFORMANCE_TOKEN;
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  return new StreamableHTTPClientTransport(new URL(command[1]), { requestInit: { headers } });
}
try {
  await client.connect(transportFor(command), options);
} catch (error) {
  // e.g. a refused connection: said as an event, then exit 1
  // A StreamableHTTPError carries the HTTP status as `code`; its message may not.
  emit({ event: 'failed', detail: `code ${error?.code}: ${String(error?.stack ?? error)}` });
  process.exit(1);
}
emit({ event: 'connected', server: client.getServerVersion()?.name ?? null });
const names = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : undefined, options);
  names.push(...page.tools.map((tool) => tool.name));
  cursor = page.nextCursor;
} while (cursor);
emit({ event: 'listed', tools: names });
const promptCases = cases.filter((c) => c.method);
if (promptCases.length > 0) {
  const listed = await client.listPrompts(undefined, options);
  emit({ event: 'listed-prompts', prompts: listed.prompts.map((prompt) => prompt.name) });
  for (const testCase of promptCases) {
    emit({ event: 'prompt', case: testCase.case, ...(await promptCase(client, testCase)) });
  }
}
for (const testCase of allCases.resources ?? []) {
  emit({ event: 'resource', case: testCase.case, ...(await resource(client, testCase)) });
}
// Tool cases last: the last of them may end the fixture (kill_server).
for (const testCase of cases.filter((c) => !c.method)) {
  emit({ event: 'called', tool: testCase.tool, case: testCase.case, ...(await call(client, testCase)) });
}
await client.close();
emit({ event: 'done' });
