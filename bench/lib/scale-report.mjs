/** Turns the scale part's results into its section of docs/benchmarks.md: goals, method, figures, ratios. */
import { cpus } from 'node:os';
import { median, ms, number, percent, ratio } from './report.mjs';
import { LIST_PATH, MAX_SKIP } from './scale-target.mjs';

const ENGINES = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const SCENARIOS = { get: 'GET by id', list: 'list page with `total`', insert: 'insert' };
/** The goal: at the large size, no more than this many times as long as at the small one. */
const TARGET = 1.5;
const mb = (bytes) => `${number(bytes / 2 ** 20)} MiB`;

/** A ratio cell: the median of the rounds' ratios, with their range when they differ. */
function growthCell({ median: middle, min, max }) {
  if (!Number.isFinite(middle)) return '–';
  return min === max ? ratio(middle) : `${ratio(middle)} (${ratio(min)}–${ratio(max)})`;
}

/**
 * The four goals (two engines × list and GET). Met when the median latency and the server's CPU per request both
 * grew by no more than the target: on a machine shared with other work, latency alone understates the growth
 * (waiting for the CPU adds the same to both sizes), while CPU per request is not diluted that way.
 */
function goalsOf(results, small, large) {
  const rows = [];
  for (const [engine, name] of Object.entries(ENGINES)) {
    for (const kind of ['list', 'get']) {
      const goal = `${name}: ${SCENARIOS[kind]}`;
      const figures = results.engines[engine];
      if (!figures || figures.skipped) {
        rows.push([goal, '–', '–', `not measured (${figures?.skipped ?? 'not run'})`]);
        continue;
      }
      const { p50, cpuPerRequest, failed } = figures.growth[kind];
      const within = (growth) => !Number.isFinite(growth.median) || growth.median <= TARGET;
      let verdict = within(p50) && within(cpuPerRequest) ? '**met**' : '**not met**';
      // A median just under the line with a round above it is a near miss, and should read as one.
      if (verdict === '**met**' && Math.max(p50.max, cpuPerRequest.max) > TARGET)
        verdict += ' (barely: a round was above)';
      if (failed > 0) verdict = `**not met** (${failed} failed requests)`;
      rows.push([goal, growthCell(p50), growthCell(cpuPerRequest), verdict]);
    }
  }
  const sizes = `at ${number(large)} ÷ at ${number(small)}`;
  return [
    `| goal | target | p50 ${sizes} | CPU per request ${sizes} | verdict |`,
    '|---|---:|---:|---:|---|',
    ...rows.map(([goal, ...cells]) => `| ${goal} | ≤ ${TARGET}× | ${cells.join(' | ')} |`),
  ].join('\n');
}

/** One engine's figures: a row per scenario and size. */
function figuresTable({ sizes }) {
  const lines = [
    "| scenario | documents | req/s (median) | range | p50 (ms) | p99 (ms) | failed | CPU per request (µs) | others' CPU |",
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [kind, label] of Object.entries(SCENARIOS)) {
    for (const [size, figures] of Object.entries(sizes)) {
      const r = figures[kind];
      const range = `${number(r.min)}–${number(r.max)}`;
      const cells = [
        label,
        number(size),
        number(r.rps),
        range,
        ms(r.p50),
        ms(r.p99),
        r.failed,
        ms(r.cpuPerRequest),
      ];
      lines.push(`| ${[...cells, r.others === undefined ? '–' : percent(r.others)].join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

/** Every ratio of the large size to the small one: latencies, and time per request from the request rate. */
function growthTable(results, small, large) {
  const lines = [
    `| engine | scenario | p50 | p99 | time per request (req/s at ${number(small)} ÷ at ${number(large)}) | CPU per request |`,
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const [engine, name] of Object.entries(ENGINES)) {
    const figures = results.engines[engine];
    if (!figures || figures.skipped) continue;
    for (const [kind, label] of Object.entries(SCENARIOS)) {
      const cells = ['p50', 'p99', 'perRequest', 'cpuPerRequest'].map((field) =>
        growthCell(figures.growth[kind][field]),
      );
      lines.push(`| ${name} | ${label} | ${cells.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

/** How long seeding took and how large the stored data came out, per engine and size. */
function seedingTable(results, sizes) {
  const lines = ['| engine | documents | seeded in | stored size |', '|---|---:|---:|---:|'];
  for (const [engine, name] of Object.entries(ENGINES)) {
    const figures = results.engines[engine];
    if (!figures || figures.skipped) continue;
    for (const size of sizes) {
      const { seedSeconds, bytes } = figures.sizes[size];
      lines.push(`| ${name} | ${number(size)} | ${seedSeconds.toFixed(1)} s | ${mb(bytes)} |`);
    }
  }
  return lines.join('\n');
}

/** The PostgreSQL line of the method: version and the settings that decide its speed, as the server reported them. */
function postgresMethod(results) {
  if (results.engines.postgres?.skipped)
    return `PostgreSQL was not measured: ${results.engines.postgres.skipped}.`;
  const { version, settings } = results.postgres;
  const shown = Object.entries(settings).map(([name, value]) => `\`${name}=${value}\``);
  return `PostgreSQL ${version}, a throwaway cluster made by \`initdb\` in a temporary directory on the same disk, with
  its default settings: ${shown.join(', ')} (normal durability: every acknowledged insert is flushed to disk). The
  server connects with \`DATABASE_URL\` to a fresh database per size and the default pool
  (\`DATABASE_POOL_SIZE=10\`); no Redis (one instance).`;
}

/** How busy the machine was with other work while the figures were taken. */
function busyLine(results) {
  const shares = results.others ?? [];
  if (!shares.length) return 'The CPU use of other processes could not be measured (no /proc).';
  return `While they were measured, other processes used ${percent(median(shares))} of the CPU in the median
measurement and ${percent(Math.max(...shares))} at most (the column "others' CPU" shows each figure's median).`;
}

/** Renders `{ markdown, goals }`: the scale section, and its goals table alone for the console. */
export function renderScale(results, settings) {
  const { sizes, connections, duration, warmup, rounds, command, date } = settings;
  const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
  const goals = goalsOf(results, small, large);
  const engineSections = Object.entries(ENGINES)
    .filter(([engine]) => results.engines[engine] && !results.engines[engine].skipped)
    .map(([engine, name]) => `### ${name}\n\n${figuresTable(results.engines[engine])}`)
    .join('\n\n');
  const markdown = `## Scale: ${number(small)} vs ${number(large)} documents

Produced by \`${command}\` (bench/run.mjs, its scale part) on ${date}, on ${cpus().length} cores shared with the
load generator. \`--scale-only\` reruns this section alone; \`--skip-scale\` keeps it as it is.
${busyLine(results)}

### Goals

On both engines, a list page with \`total\` and a GET by id should take no more than ${TARGET}× as long at
${number(large)} documents as at ${number(small)}. Each ratio is taken in every round from two runs back to back
(one per size); the median of the rounds is shown, with their range in brackets. A goal is met when both the
median latency (p50) and the CPU time per request of the server and its database grew by no more than
${TARGET}×: on a machine shared with other work latency alone understates the growth, because waiting for the
CPU adds the same to both sizes; CPU per request does not depend on that.

${goals}

### Method

- Data: for each engine and size, a reference server over its own fresh database whose \`orders\` collection holds
  exactly that many documents: one inserted over HTTP (which creates the collection), the rest written straight
  into the database by bench/lib/seed.mjs, as the engine stores them (SQLite: one transaction with a prepared
  statement, then \`collections.doc_count\`; PostgreSQL: \`COPY\` into \`documents\`, the count as one row of
  \`collection_counters\`, then \`VACUUM (ANALYZE)\` and \`CHECKPOINT\`). Documents are the orders of the section
  above; their ids are ULIDs whose time part is their \`_createdAt\`, one millisecond apart, so ids and creation
  times increase together as with the server's own ids. Before measuring, the benchmark checks through the API
  that \`GET /api/v1/data/orders?limit=1\` reports the size as \`total\`, that the newest-first page lists the
  seeded documents in order, and that a seeded id reads back.
- Scenarios: **GET by id**, \`GET /api/v1/data/orders/{id}\` for a random seeded id; **list page**,
  \`GET ${LIST_PATH}&skip={k}\` with \`k\` drawn at random from 0..${MAX_SKIP} for each request (the answer
  carries \`total\`); **insert**, \`POST /api/v1/data/orders\` with one of 100 orders. After every insert run the
  documents it wrote are deleted through the database (and the count restored; on PostgreSQL, vacuumed again),
  so that every read is measured at exactly the stated size.
- Load: autocannon, ${connections} connections, no pipelining; ${warmup} s of warm-up per scenario and size, then
  ${rounds} rounds of ${duration} s each. Within a round, each engine's sizes are measured back to back for one
  scenario after a wait (at most 10 s) for a quiet machine; every other round runs in reverse order, so that
  neither size always goes first. All four servers run during the whole part. Figures are medians of the rounds;
  latencies are timed per response (2xx only) to the microsecond. "CPU per request" is the CPU time
  the measured server used during the run, plus all of PostgreSQL's processes for that engine (from /proc, at a
  10 ms grain), divided by the requests answered. "Others' CPU" is the share of the machine
  used by processes other than the benchmark, its servers and PostgreSQL's (the kernel's disk-flushing threads
  count as others, so inserts show some even on a quiet machine).
- SQLite: WAL, \`synchronous=FULL\` (the default), as in the sections above.
- ${postgresMethod(results)}

${seedingTable(results, sizes)}

### Growth from ${number(small)} to ${number(large)} documents

${growthTable(results, small, large)}

${engineSections}
`;
  return { markdown, goals };
}
