#!/usr/bin/env -S node --max-semi-space-size=8
import module from 'node:module';

// The shebang caps V8's young generation at 2 × 8 MB (its default grows to 2 × 16 MB under load): a busy server
// holds about 15 MB less, for more frequent scavenges (docs/deployment.md, "Memory"). Started as
// `node dist/bin.js`, pass the flag yourself.

// On Node 22.1 and later the compiled bundle is kept on disk between starts (most of what a start spends is V8
// compiling it); Node 20 has no such cache and skips this. The server is imported only after it is enabled.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// Operator commands run against the server's database and exit; anything else starts the server.
if (process.argv[2] === 'credits') {
  const { runCreditsCommand } = await import('./operator/credits.js');
  process.exit(await runCreditsCommand(process.argv.slice(3)));
}
const failed = (error: Error): never => {
  console.error(`dataplatform-server failed to start: ${error.message}`);
  process.exit(1);
};
// The socket listens before the server's modules load (most of a start): `/healthz` answers from here on, and
// every other request waits until the app is ready (http/front-door.ts).
const { listenAddress } = await import('./listen-address.js');
const { openFrontDoor } = await import('./http/front-door.js');
const frontDoor = await (async () => {
  const { port, host } = listenAddress();
  return openFrontDoor(port, host);
})().catch(failed);
const { startServer } = await import('./server.js');

const server = await startServer({}, { frontDoor }).catch(failed);

server.app.log.info(`API explorer: ${server.url}/api-docs`);
if (server.devAccount) {
  // Printed once, on the first start; the same values are in dev-credentials.json in the data directory.
  const { email, password, apiKey, baseUrl } = server.devAccount;
  console.log(
    `\nDevelopment account created:\n${JSON.stringify({ email, password, apiKey, baseUrl }, null, 2)}\n`,
  );
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal} received: finishing in-flight requests`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
