// Runs the official MCP conformance framework (@modelcontextprotocol/conformance, pinned
// in package.json, installed by ../install) against `paneward serve --http`, once per
// protocol revision named (`--requirements REVISION`: exactly the scenarios that
// revision requires, at its own wire, plus the extensions' scenarios, reported), with
// expected-failures-REVISION.yml as its expected failures. Exits non-zero when any run
// fails: a failure not listed, or a listed one that passes (a stale entry).
//
// Usage: node run.mjs INSTALL_DIR PANEWARD_BINARY REVISION...
//
// It starts a tmux server on a private socket and paneward serving it on a loopback
// port the kernel picks, with a fresh bearer token. The framework sends no token, so
// it talks to a loopback relay that adds `Authorization: Bearer ...` and passes
// everything else through untouched (paneward's Host and Origin checks see what the
// framework sent). Everything started here is stopped before it exits.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [installDir, binary, ...revisions] = process.argv.slice(2);
if (!installDir || !binary || revisions.length === 0) {
  console.error('usage: run.mjs INSTALL_DIR PANEWARD_BINARY REVISION...');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const socket = `paneward-ci-framework-${process.pid}`;
const scratch = mkdtempSync(join(tmpdir(), 'paneward-framework-'));
const token = randomBytes(32).toString('hex');
const tokenFile = join(scratch, 'token');
writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });

function stopAll(paneward, relay) {
  paneward?.kill();
  relay?.close();
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  rmSync(scratch, { recursive: true, force: true });
}

spawnSync('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'framework', '/bin/sh'], {
  stdio: 'inherit',
});
const paneward = spawn(binary, ['-L', socket, 'serve', '--http', '127.0.0.1:0', '--token-file', tokenFile], {
  stdio: ['ignore', 'ignore', 'pipe'],
});

// paneward says where it listens on standard error (its log).
const target = await new Promise((resolve, reject) => {
  let log = '';
  paneward.stderr.on('data', (chunk) => {
    log += chunk;
    const found = log.match(/Streamable HTTP at (http:\/\/[^/\s]+)\/mcp/);
    if (found) resolve(new URL(found[1]));
  });
  paneward.on('exit', (code) => reject(new Error(`paneward exited (${code}) before serving: ${log}`)));
}).catch((error) => {
  console.error(String(error));
  stopAll(paneward);
  process.exit(1);
});

const relay = http.createServer((request, response) => {
  const headers = { ...request.headers, authorization: `Bearer ${token}` };
  const upstream = http.request(
    { host: target.hostname, port: target.port, path: request.url, method: request.method, headers },
    (reply) => {
      response.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(response);
    },
  );
  upstream.on('error', (error) => {
    if (!response.headersSent) response.writeHead(502);
    response.end(String(error));
  });
  // The framework closing a stream (a cancellation) closes paneward's side too.
  response.on('close', () => upstream.destroy());
  request.pipe(upstream);
});
await new Promise((resolve) => relay.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${relay.address().port}/mcp`;

const cli = join(installDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
// The framework's own YAML reader, to read the expected failures as it does.
const { parse: parseYaml } = await import(
  pathToFileURL(join(installDir, 'node_modules/yaml/dist/index.js')).href
);

// Runs the framework's requirements of `revision` with its expected failures, saving
// each check's result under `results`; its exit status.
async function requirements(revision, results) {
  const expected = join(here, `expected-failures-${revision}.yml`);
  const options = ['server', '--url', url, '--requirements', revision, '--expected-failures', expected];
  const run = spawn(process.execPath, [cli, ...options, '--output-dir', results], { stdio: 'inherit' });
  return new Promise((resolve) => run.on('exit', (exit) => resolve(exit ?? 1)));
}

// The server scenarios of the extensions `revision` names: the framework runs them
// with its requirements and reports them, but scores none (nor holds them to the
// expected failures). paneward serves the Tasks extension, so they are held here.
function extensionScenarios(revision) {
  const listed = spawnSync(process.execPath, [cli, 'list', '--server', '--requirements', revision], {
    encoding: 'utf8',
  }).stdout;
  const section = listed.split(/^\s*extension \(\d+\):$/m)[1] ?? '';
  const scenarios = [];
  for (const line of section.split('\n').slice(1)) {
    const item = line.match(/^\s+- (\S+) \[(server|client)\]$/);
    if (!item) break;
    if (item[2] === 'server') scenarios.push(item[1]);
  }
  return scenarios;
}

// The framework's rule for its expected failures, applied to the extension scenarios'
// saved results: a failure or warning not listed (as `scenario` or `scenario:check`)
// is unexpected, and a listed check that passed is stale. The number of both.
function heldToExpected(revision, results) {
  const listed = parseYaml(readFileSync(join(here, `expected-failures-${revision}.yml`), 'utf8'))?.server ?? [];
  let wrong = 0;
  for (const scenario of extensionScenarios(revision)) {
    const folder = readdirSync(results).find((name) => name.startsWith(`server-${scenario}-`));
    if (!folder) {
      console.log(`✗ ${scenario}: not run`);
      wrong += 1;
      continue;
    }
    const checks = JSON.parse(readFileSync(join(results, folder, 'checks.json'), 'utf8'));
    const wholly = listed.includes(scenario);
    for (const check of checks) {
      const entry = `${scenario}:${check.id}`;
      const expected = wholly || listed.includes(entry);
      if ((check.status === 'FAILURE' || check.status === 'WARNING') && !expected) {
        console.log(`✗ unexpected ${check.status.toLowerCase()}: ${entry}: ${check.errorMessage ?? ''}`);
        wrong += 1;
      } else if (check.status === 'SUCCESS' && listed.includes(entry)) {
        console.log(`✗ stale expected failure (it passes now; delete it): ${entry}`);
        wrong += 1;
      }
    }
  }
  return wrong;
}

// One revision after the other, against the same paneward: the scenarios of each
// drive the one tmux server, and two at once would see each other's panes.
let status = 0;
for (const revision of revisions) {
  const started = Date.now();
  console.log(`\n=== MCP conformance framework, requirements of ${revision} ===`);
  // Each check's own result, as JSON: under PANEWARD_FRAMEWORK_RESULTS if set.
  const results = join(process.env.PANEWARD_FRAMEWORK_RESULTS ?? scratch, revision);
  let code = await requirements(revision, results);
  const wrong = heldToExpected(revision, results);
  if (wrong > 0) {
    console.log(`${wrong} check(s) of the extensions' scenarios against expected-failures-${revision}.yml`);
    code = code || 1;
  }
  console.log(`=== ${revision}: exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  if (code !== 0) status = code;
}
stopAll(paneward, relay);
process.exit(status);
