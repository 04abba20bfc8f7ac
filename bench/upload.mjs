/**
 * `pnpm bench:upload`: `dp upload` of a large NDJSON file into the reference server on embedded SQLite, end to
 * end (the built CLI and the built server, each its own process). Reports documents per second and the peak
 * resident memory (VmHWM) of each process, and writes the "Upload" section of docs/benchmarks.md.
 * Options: --documents 1000000 --rounds 1 --skip-build --out docs/benchmarks.md
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startChild } from './lib/child.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    documents: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '1' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const documents = Number(opts.documents);
const rounds = Number(opts.rounds);
if (!Number.isInteger(documents) || documents < 1000)
  throw new Error('--documents takes a whole number of at least 1000');
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of at least 1');

const GOALS = { docsPerSecond: 50_000, cliPeakMb: 150, serverPeakMb: 300 };

if (!opts['skip-build'])
  buildPackages(root, [
    '@dataplatform/contract',
    '@dataplatform/server',
    '@dataplatform/sdk',
    '@dataplatform/cli',
  ]);
const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');
if (!existsSync(bin)) throw new Error(`${relative(root, bin)} is missing: run without --skip-build`);

const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-upload-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));

/** Orders of a shop, about 110 bytes each: a few fields of each JSON type, one nested object. */
async function writeFile(path) {
  const out = createWriteStream(path);
  for (let i = 0; i < documents; i += 10_000) {
    let text = '';
    for (let j = i; j < Math.min(i + 10_000, documents); j++) {
      text += `{"order":${j},"customer":"c-${j % 5000}","total":${(j % 997) * 1.25},"paid":${j % 3 === 0},"address":{"city":"city-${j % 50}","zip":"${10000 + (j % 89999)}"}}\n`;
    }
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Peak resident set of a process so far, in bytes (Linux keeps it as VmHWM); undefined once it has exited. */
function peakRss(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const file = join(work, 'orders.ndjson');
console.log(`Writing ${documents.toLocaleString('en-US')} NDJSON documents…`);
await writeFile(file);
const bytes = statSync(file).size;
console.log(`  ${(bytes / 1e6).toFixed(1)} MB in ${relative(root, file) || file}`);

const results = [];
for (let round = 1; round <= rounds; round++) {
  const dataDir = join(work, `data-${round}`);
  const server = await startChild(join(root, 'bench', 'servers', 'reference.mjs'), ['-', dataDir], {
    env: { DATABASE_URL: '', DATAPLATFORM_SQLITE_SYNCHRONOUS: 'FULL' },
  });
  const { url, apiKey } = server.info;
  const started = performance.now();
  const cli = spawn(process.execPath, [bin, 'upload', file, '--collection', 'orders', '--json'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATAPLATFORM_BASE_URL: url,
      DATAPLATFORM_API_KEY: apiKey,
      DATAPLATFORM_CONFIG_DIR: work,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let cliPeak = 0;
  const sampler = setInterval(() => {
    cliPeak = Math.max(cliPeak, peakRss(cli.pid) ?? 0);
  }, 50);
  let stdout = '';
  cli.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  const [code] = await once(cli, 'exit');
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const serverPeak = peakRss(server.pid) ?? 0;
  await server.stop();
  if (code !== 0) throw new Error(`dp upload exited with status ${code}`);
  const job = JSON.parse(stdout);
  if (job.status !== 'succeeded' || job.counts.inserted !== documents)
    throw new Error(`the import did not store every document: ${JSON.stringify(job.counts)}`);
  const result = {
    seconds,
    docsPerSecond: documents / seconds,
    cliPeakMb: cliPeak / 2 ** 20,
    serverPeakMb: serverPeak / 2 ** 20,
  };
  results.push(result);
  console.log(
    `  round ${round}: ${seconds.toFixed(1)} s, ${Math.round(result.docsPerSecond).toLocaleString('en-US')} documents/s, CLI peak ${result.cliPeakMb.toFixed(0)} MB, server peak ${result.serverPeakMb.toFixed(0)} MB`,
  );
  rmSync(dataDir, { recursive: true, force: true });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rate = median(results.map((r) => r.docsPerSecond));
const cliPeak = Math.max(...results.map((r) => r.cliPeakMb));
const serverPeak = Math.max(...results.map((r) => r.serverPeakMb));
const mark = (ok) => (ok ? 'met' : '**missed**');
const args = process.argv.slice(2).join(' ');
const markdown = `## Upload

\`dp upload\` of ${documents.toLocaleString('en-US')} NDJSON documents (${(bytes / 1e6).toFixed(0)} MB) into the reference server on
embedded SQLite (synchronous FULL), end to end: the built CLI reads the file and streams it, the server parses it and
stores it in transactions of 1000 rows. Each is its own process; peak memory is the kernel's high-water mark of
resident memory (VmHWM). ${rounds === 1 ? 'One round' : `Median of ${rounds} rounds, peaks the highest`}.

| measure | result | goal | |
|---|---:|---:|---|
| documents per second | ${Math.round(rate).toLocaleString('en-US')} | ≥ ${GOALS.docsPerSecond.toLocaleString('en-US')} | ${mark(rate >= GOALS.docsPerSecond)} |
| CLI peak memory | ${cliPeak.toFixed(0)} MB | < ${GOALS.cliPeakMb} MB | ${mark(cliPeak < GOALS.cliPeakMb)} |
| server peak memory | ${serverPeak.toFixed(0)} MB | < ${GOALS.serverPeakMb} MB | ${mark(serverPeak < GOALS.serverPeakMb)} |

Produced by \`pnpm bench:upload${args ? ` ${args}` : ''}\` on ${new Date().toISOString().slice(0, 10)}.
`;
console.log(`\n${markdown}`);
writeSection(root, opts.out, 'Upload', markdown);
