/**
 * `pnpm bench:sql-group`: the SQL helper's `GROUP BY status` with `COUNT(*)` and `SUM(total)` against the same
 * question written by hand in each engine's own SQL, on the same rows, side by side in one run: SQLite, and
 * PostgreSQL when its server binaries are here (/usr/lib/postgresql or $PG_BIN). The helper's time is the
 * storage engine's `queries.run` with the parsed statement (what the route runs after parsing; the parse is
 * measured apart). Writes the section "SQL grouping" of docs/benchmarks.md.
 * Options: --documents 1000000 --rounds 5 --no-postgres --skip-build --out docs/benchmarks.md
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { postgresBinaries, startPostgres } from './lib/postgres.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';
import { seedPostgres, seedSqlite } from './lib/seed.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    documents: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '5' },
    'no-postgres': { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const documents = Number(opts.documents);
// Other work on the machine slows both forms alike, but the page says how busy it was.
const load = loadavg()[0];
const rounds = Number(opts.rounds);
const STATEMENT = 'SELECT status, COUNT(*), SUM(total) FROM orders GROUP BY status';
// What a person would write against the engine's own table: no type checks, no JSON objects per group.
const HAND = {
  sqlite:
    "SELECT json_extract(data, '$.status') AS status, count(*) AS n, sum(json_extract(data, '$.total')) AS total FROM documents WHERE collection_id = ? GROUP BY 1",
  postgres:
    "SELECT data->>'status' AS status, count(*) AS n, sum((data->>'total')::numeric) AS total FROM documents WHERE collection_id = $1 GROUP BY 1",
};

if (!opts['skip-build']) buildPackages(root, ['@dataplatform/contract', '@dataplatform/server']);
const { openStorage } = await import('@dataplatform/server');
const { parseSql } = await import('@dataplatform/contract/sql');
const ref = { clusterId: 'bench', collection: 'orders' };

/** Milliseconds of one call. */
async function time(run) {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs both forms `rounds` times, alternating which goes first, after one warm-up run of each. */
async function compare(engine, helper, hand) {
  const helperRows = await helper();
  const handRows = await hand();
  if (helperRows.length !== handRows.length) {
    throw new Error(
      `${engine}: the helper found ${helperRows.length} groups, the hand-written SQL ${handRows.length}`,
    );
  }
  const times = { helper: [], hand: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ['hand', 'helper'] : ['helper', 'hand'];
    for (const form of order) times[form].push(await time(form === 'helper' ? helper : hand));
  }
  const result = { engine, groups: handRows.length, helper: median(times.helper), hand: median(times.hand) };
  console.log(
    `${engine}: helper ${result.helper.toFixed(0)} ms, hand-written ${result.hand.toFixed(0)} ms, ×${(result.helper / result.hand).toFixed(2)}`,
  );
  return result;
}

/** A storage with one document in `orders` (which makes the collection), then the seeded rows. */
async function seeded(config, seed) {
  const storage = await openStorage(config);
  const now = new Date().toISOString();
  await storage.documents.insert(ref, {
    id: '0',
    data: '{"status":"paid","total":1}',
    createdAt: now,
    updatedAt: now,
  });
  await seed({ ...ref, total: documents });
  return storage;
}

const query = parseSql(STATEMENT, []);
if ('code' in query) throw new Error(query.message);
// The first parses warm the parser up; the route's parser stays loaded between statements.
for (let i = 0; i < 20; i++) parseSql(STATEMENT, []);
const parseTimes = [];
for (let i = 0; i < 20; i++) parseTimes.push(await time(() => parseSql(STATEMENT, [])));
const parse = median(parseTimes);
const results = [];

const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-sql-group-'));
try {
  const file = join(work, 'dataplatform.sqlite');
  const storage = await seeded({ dataDir: work, sqliteSynchronous: 'normal' }, (target) =>
    seedSqlite(file, target),
  );
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(file, { readonly: true });
  const { id } = db
    .prepare("SELECT id FROM collections WHERE cluster_id = 'bench' AND name = 'orders'")
    .get();
  const hand = db.prepare(HAND.sqlite);
  results.push(
    await compare(
      'SQLite',
      async () => (await storage.queries.run(ref, query)).rows,
      async () => hand.all(id),
    ),
  );
  db.close();
  await storage.close?.();
} finally {
  rmSync(work, { recursive: true, force: true });
}

const bin = opts['no-postgres'] ? null : postgresBinaries();
if (bin) {
  const pg = await startPostgres(bin);
  try {
    const url = pg.url('postgres');
    const storage = await seeded({ databaseUrl: url, databasePoolSize: 2 }, (target) =>
      seedPostgres(url, target),
    );
    const { default: postgres } = await import('postgres');
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const [{ id }] = await sql`SELECT id FROM collections WHERE cluster_id = 'bench' AND name = 'orders'`;
    results.push(
      await compare(
        `PostgreSQL ${pg.version}`,
        async () => (await storage.queries.run(ref, query)).rows,
        async () => sql.unsafe(HAND.postgres, [id]),
      ),
    );
    await sql.end();
    await storage.close?.();
  } finally {
    await pg.stop();
  }
} else {
  console.log('PostgreSQL: skipped, no PostgreSQL server binaries (install postgresql or set PG_BIN)');
}

const args = process.argv.slice(2).join(' ');
const rows = results.map(
  (r) =>
    `| ${r.engine} | ${r.groups} | ${r.helper.toFixed(0)} | ${r.hand.toFixed(0)} | ${(r.helper / r.hand).toFixed(2)} |`,
);
const section = `## SQL grouping

Produced by \`pnpm bench:sql-group${args ? ` ${args}` : ''}\` on ${new Date().toISOString().slice(0, 10)}.
\`${STATEMENT}\` over ${documents.toLocaleString('en')} seeded orders (about 300 bytes of JSON each), run by the
storage engine as the route runs it, against the same question written by hand in the engine's SQL on the same rows
(\`json_extract\` on SQLite, \`->>\` on PostgreSQL, without the helper's JSON type checks). Median of ${rounds} runs
each, alternating which goes first, after one warm-up run, the machine's load average ${load.toFixed(2)} at the start.
Parsing the statement takes ${parse.toFixed(2)} ms more.

| engine | groups | helper (ms) | hand-written (ms) | × hand-written |
|---|---:|---:|---:|---:|
${rows.join('\n')}

| goal | target | measured | verdict |
|---|---:|---:|---|
${results.map((r) => `| ${r.engine.split(' ')[0]}: grouping vs hand-written SQL | ≤ 1.5× | ${(r.helper / r.hand).toFixed(2)}× | **${r.helper / r.hand <= 1.5 ? 'met' : 'not met'}** |`).join('\n')}
`;
console.log(`\n${section}`);
writeSection(root, opts.out, 'SQL grouping', section);
process.exit(0);
