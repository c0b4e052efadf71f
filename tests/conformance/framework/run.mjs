// Runs the official MCP conformance framework (@modelcontextprotocol/conformance, pinned
// in package.json, installed by ../install) against `paneward serve --http`, with
// baseline.yml as its expected failures. Exits with the framework's status.
//
// Usage: node run.mjs INSTALL_DIR PANEWARD_BINARY
//
// It starts a tmux server on a private socket and paneward serving it on a loopback
// port the kernel picks, with a fresh bearer token. The framework sends no token, so
// it talks to a loopback relay that adds `Authorization: Bearer ...` and passes
// everything else through untouched (paneward's Host and Origin checks see what the
// framework sent). Everything started here is stopped before it exits.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [installDir, binary] = process.argv.slice(2);
if (!installDir || !binary) {
  console.error('usage: run.mjs INSTALL_DIR PANEWARD_BINARY');
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
const framework = spawn(
  process.execPath,
  [cli, 'server', '--url', url, '--expected-failures', join(here, 'baseline.yml')],
  { stdio: 'inherit' },
);
const status = await new Promise((resolve) => framework.on('exit', (code) => resolve(code ?? 1)));
stopAll(paneward, relay);
process.exit(status);
