/**
 * `pnpm bench:backups`: a backup and a restore of `--documents` orders through the reference server
 * (`POST /api/backups`, `POST /api/backups/{id}/restore`, each timed until its job ended), beside the engine's own
 * tools on the same data in the same run: `pg_dump -Fc` / `pg_restore` into a new database for PostgreSQL, and the
 * `sqlite3` shell's `.backup` / `.restore` for SQLite. Peak resident memory is the server's during its job (the
 * tool's own for the native ones). Writes the section "Backups" of docs/benchmarks.md. PostgreSQL runs only when
 * its server binaries are installed (/usr/lib/postgresql or $PG_BIN).
 * Options: --documents 100000 --engines sqlite,postgres --skip-build --out docs/benchmarks.md
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { residentMemory, sampleMemory } from './lib/memory.mjs';
import { postgresBinaries, startPostgres } from './lib/postgres.mjs';
import { number } from './lib/report.mjs';
import { prepare } from './lib/scale-target.mjs';
import { buildServer, writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    documents: { type: 'string', default: '100000' },
    engines: { type: 'string', default: 'sqlite,postgres' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
process.on('SIGINT', () => process.exit(130));
const documents = Number(opts.documents);
const bin = postgresBinaries();
const engines = opts.engines.split(',').filter((engine) => engine !== 'postgres' || bin);
if (!opts['skip-build']) buildServer(root);
const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-backups-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const MIB = 1024 * 1024;
const NO_MEMORY = { anon: 0, file: 0, rss: 0 };

/** Runs a command to its end; resolves with its seconds and its peak resident memory. */
async function timed(command, args) {
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const memory = sampleMemory([child.pid], 20);
  const [code] = await once(child, 'exit');
  const peak = await memory.stop();
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
  return { seconds: (performance.now() - started) / 1000, peak: peak ?? NO_MEMORY };
}

/** One call of the server's session routes, answered as JSON. */
async function call(url, token, method, path, body) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Starts a server job by `start` and times it until `ended` says so, sampling the server's memory. */
async function serverJob(pid, start, ended) {
  const memory = sampleMemory([pid], 20);
  const started = performance.now();
  const first = await start();
  while (!(await ended(first))) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - started) / 1000;
  return { seconds, peak: (await memory.stop()) ?? NO_MEMORY };
}

/** The machine's 1-minute load average at the start and the end: the figures move with it. */
const loads = [loadavg()[0]];
const pg = engines.includes('postgres') ? await startPostgres(bin) : null;
const rows = [];
try {
  for (const engine of engines) {
    console.log(`${engine}: seeding ${number(documents)} orders`);
    const target = await prepare(engine, documents, { work, pg, log: console.log });
    const { url } = target.server.info;
    try {
      const credentials = JSON.parse(readFileSync(join(target.dataDir, 'dev-credentials.json'), 'utf8'));
      const { token } = await (
        await fetch(`${url}/api/auth/signin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: credentials.email, password: credentials.password }),
        })
      ).json();
      let native;
      // The engine's own tools first, on the database as seeded: a restore of the server leaves the replaced
      // documents' pages free in the SQLite file, which `.backup` would copy too.
      if (engine === 'postgres') {
        const source = target.databaseUrl;
        const dump = join(work, 'orders.dump');
        const nativeBackup = await timed(join(bin, 'pg_dump'), ['-Fc', '-f', dump, source]);
        const copy = await pg.createDatabase('bench_restore');
        const nativeRestore = await timed(join(bin, 'pg_restore'), ['-d', copy, dump]);
        native = {
          engine,
          tool: 'pg_dump -Fc / pg_restore',
          backup: nativeBackup,
          restore: nativeRestore,
          bytes: statSync(dump).size,
        };
      } else {
        const file = join(target.dataDir, 'dataplatform.sqlite');
        const copy = join(work, 'copy.sqlite');
        const nativeBackup = await timed('sqlite3', [file, `.backup '${copy}'`]);
        const nativeRestore = await timed('sqlite3', [join(work, 'restored.sqlite'), `.restore '${copy}'`]);
        native = {
          engine,
          tool: 'sqlite3 .backup / .restore',
          backup: nativeBackup,
          restore: nativeRestore,
          bytes: statSync(copy).size,
        };
      }
      console.log(
        `  native: backup ${native.backup.seconds.toFixed(2)} s, restore ${native.restore.seconds.toFixed(2)} s`,
      );
      const idle = residentMemory([target.server.pid]) ?? NO_MEMORY;
      let backupId;
      const backup = await serverJob(
        target.server.pid,
        async () => (backupId = (await call(url, token, 'POST', '/api/backups', {}))._id),
        async (id) =>
          ['succeeded', 'failed'].includes((await call(url, token, 'GET', `/api/backups/${id}`)).status),
      );
      const written = await call(url, token, 'GET', `/api/backups/${backupId}`);
      if (written.status !== 'succeeded') throw new Error(`the backup ${written.status}`);
      const restore = await serverJob(
        target.server.pid,
        async () => (await call(url, token, 'POST', `/api/backups/${backupId}/restore`, {}))._id,
        async (id) => {
          const job = await call(url, token, 'GET', `/api/jobs/${id}`);
          if (job.status === 'failed') throw new Error(`the restore failed: ${job.failure?.message}`);
          return job.status === 'succeeded';
        },
      );
      rows.push({ engine, tool: 'dataplatform', backup, restore, bytes: written.sizeBytes, idle }, native);
      console.log(
        `  dataplatform: backup ${backup.seconds.toFixed(2)} s, restore ${restore.seconds.toFixed(2)} s`,
      );
    } finally {
      await target.server.stop();
    }
  }
} finally {
  await pg?.stop();
}

loads.push(loadavg()[0]);
const rate = (seconds) => number(documents / seconds);
const table = rows.map((r) => {
  const memory = (m) => `${number(m.peak.rss / MIB)} / ${number(m.peak.anon / MIB)}`;
  return `| ${r.engine} | ${r.tool} | ${r.backup.seconds.toFixed(2)} | ${rate(r.backup.seconds)} | ${memory(r.backup)} | ${r.restore.seconds.toFixed(2)} | ${rate(r.restore.seconds)} | ${memory(r.restore)} | ${number(r.bytes / MIB)} |`;
});
const args = process.argv.slice(2).join(' ');
const section = `## Backups

Produced by \`pnpm bench:backups${args ? ` ${args}` : ''}\` on ${new Date().toISOString().slice(0, 10)}.
${number(documents)} orders (the seeded rows of the other benchmarks) in one collection of the reference server
from the build, backed up (\`POST /api/backups\`, until the backup is \`succeeded\`) and restored into the same
cluster (\`POST /api/backups/{id}/restore\`, until its job ended), each timed over HTTP from the request to the
end of the job; before them, in the same run, the engine's own tools on the same database as seeded. Memory is
the peak resident memory (RSS) of the server process during its job (the server idles at about the figure in the
note below), or of the tool's process, and its anonymous part (\`RssAnon\`: what the process allocated; the
rest is file-backed, mostly the database pages SQLite's mmap reads, which the kernel can drop). Archive sizes:
the gzip archive, the custom-format dump, the SQLite copy.

| engine | tool | backup s | docs/s | peak MiB RSS / anon | restore s | docs/s | peak MiB RSS / anon | archive MiB |
|---|---|---:|---:|---:|---:|---:|---:|---:|
${table.join('\n')}

Load average (1 min) at the start and the end of the run: ${loads.map((load) => load.toFixed(1)).join(' and ')}.
Server RSS before the backups: ${rows
  .filter((r) => r.idle)
  .map((r) => `${r.engine} ${number(r.idle.rss / MIB)} MiB (${number(r.idle.anon / MIB)} anon)`)
  .join(', ')}.
`;
console.log(`\n${section}`);
writeSection(root, opts.out, 'Backups', section);
