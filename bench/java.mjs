/**
 * `pnpm bench:java`: GET by id through the Java client against raw `HttpClient` with the same settings (one shared
 * HttpClient: HTTP/1.1, no redirects), side by side in one JVM (blocking calls on threads, and CompletableFuture
 * chains), on the reference server (SQLite). Writes its section of docs/benchmarks.md.
 * Options: --rounds 5 --seconds 3 --threads 4 --in-flight 4 --skip-build --out docs/benchmarks.md
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { flavourRows, startOrderServer } from './lib/client-vs-raw.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    threads: { type: 'string', default: '4' },
    'in-flight': { type: 'string', default: '4' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const GOAL = 0.85;
const TITLE = 'Java client vs HttpClient (GET by id on the reference server)';

if (!opts['skip-build'])
  buildPackages(root, ['@dataplatform/contract', '@dataplatform/webhooks', '@dataplatform/server']);
// The client's classes and its dependencies' jars (Jackson), from Maven's local repository.
const java = join(root, 'packages', 'sdk-java');
const classpathFile = join(java, 'target', 'classpath.txt');
execFileSync(
  'mvn',
  ['-B', '-ntp', '-q', '-T1', 'compile', 'dependency:build-classpath', `-Dmdep.outputFile=${classpathFile}`],
  { cwd: java, stdio: 'inherit' },
);
const classpath = [join(java, 'target', 'classes'), readFileSync(classpathFile, 'utf8').trim()].join(':');

const server = await startOrderServer(root, 'java');
try {
  console.log(
    `Java client vs HttpClient: ${opts.rounds} rounds of ${opts.seconds} s per target and flavour…`,
  );
  const output = execFileSync(
    'java',
    [
      '-cp',
      classpath,
      join(root, 'bench', 'clients', 'JavaGet.java'),
      server.url,
      server.apiKey,
      server.id,
      opts.rounds,
      opts.seconds,
      opts.threads,
      opts['in-flight'],
    ],
    { cwd: root },
  );
  const result = JSON.parse(String(output).trim().split('\n').at(-1));
  result.load = loadavg().map((value) => value.toFixed(1));
  const args = process.argv.slice(2).join(' ');
  const markdown = render(result, args ? `pnpm bench:java ${args}` : 'pnpm bench:java');
  console.log(`\n${markdown}`);
  writeSection(root, opts.out, TITLE, markdown);
} finally {
  await server.stop();
}

function render(result, command) {
  const parts = [
    ['sync', `blocking, ${opts.threads} threads`, '`send` + Jackson', '`client.data().get`'],
    ['async', `async, ${opts['in-flight']} in flight`, '`sendAsync` + Jackson', '`client.data().getAsync`'],
  ].map(([flavour, label, raw, ours]) =>
    flavourRows({
      label,
      rawName: `HttpClient ${raw}`,
      clientName: ours,
      raw: result[flavour].raw,
      client: result[flavour].client,
      versus: 'HttpClient',
      goal: GOAL,
    }),
  );
  return [
    `## ${TITLE}`,
    '',
    `Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)}: ${opts.rounds} rounds of ${opts.seconds} s per`,
    'target, alternating which goes first, after a warm-up of each (the JIT); both send through one `HttpClient`',
    '(HTTP/1.1, no redirects: `DataPlatform.builder().httpClient(http)`), build each request anew (as a program',
    'reading documents by id does) and read the JSON answer into a `Map` with Jackson. Figures are medians of the',
    "rounds; the ratio is the median of the rounds' ratios.",
    `Load average when the run ended: ${result.load.join(', ')} (2 cores); on a shared machine the absolute rates`,
    'move with the other work, the ratio of two neighbouring measurements much less.',
    '',
    '| flavour | target | req/s (median) | range | ÷ HttpClient |',
    '|---|---|---:|---:|---:|',
    ...parts.flatMap((part) => part.rows),
    '',
    ...parts.map((part) => part.goal),
  ].join('\n');
}
