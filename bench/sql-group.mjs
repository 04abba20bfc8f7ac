/**
 * `pnpm bench:sql-group`: the SQL helper's `GROUP BY status` with `COUNT(*)` and `SUM(total)` against the same
 * question written by hand in each engine's own SQL, on the same rows, side by side in one run: SQLite, and
 * PostgreSQL when its server binaries are here (/usr/lib/postgresql or $PG_BIN). The helper's time is the
 * storage engine's `queries.run` with the parsed statement (what the route runs after parsing; the parse is
 * measured apart). Writes the section "SQL grouping" of docs/benchmarks.md.
 * Options: --documents 1000000 --rounds 5 --no-postgres --skip-build --out docs/benchmarks.md
 */
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './lib/report.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';
import { ORDERS, onSeededEngines, time } from './lib/seeded-engines.mjs';

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

const query = parseSql(STATEMENT, []);
if ('code' in query) throw new Error(query.message);
// The first parses warm the parser up; the route's parser stays loaded between statements.
for (let i = 0; i < 20; i++) parseSql(STATEMENT, []);
const parseTimes = [];
for (let i = 0; i < 20; i++) parseTimes.push(await time(() => parseSql(STATEMENT, [])));
const parse = median(parseTimes);
const results = await onSeededEngines(
  { openStorage, documents, first: { status: 'paid', total: 1 }, noPostgres: opts['no-postgres'] },
  async ({ label, storage, collectionId, sqlite, postgres }) => {
    const helper = async () => (await storage.queries.run(ORDERS, query)).rows;
    if (sqlite) {
      const hand = sqlite.prepare(HAND.sqlite);
      return compare(label, helper, async () => hand.all(collectionId));
    }
    return compare(label, helper, async () => postgres.unsafe(HAND.postgres, [collectionId]));
  },
);

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
