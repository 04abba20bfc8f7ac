#!/usr/bin/env node
import { runCreditsCommand } from './operator/credits.js';
import { startServer } from './server.js';

// Operator commands run against the server's database and exit; anything else starts the server.
if (process.argv[2] === 'credits') process.exit(await runCreditsCommand(process.argv.slice(3)));

const server = await startServer().catch((error: Error) => {
  console.error(`dataplatform-server failed to start: ${error.message}`);
  process.exit(1);
});

server.app.log.info(`dataplatform server listening on ${server.url} (${server.storage.engine})`);
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
