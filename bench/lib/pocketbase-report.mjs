/** Turns the PocketBase part's results into its section of docs/benchmarks.md. */
import { cpus } from 'node:os';
import { POCKETBASE_VERSION } from './pocketbase.mjs';
import { SCENARIOS } from './pocketbase-bench.mjs';
import { ms, number, percent, ratio } from './report.mjs';

const LABELS = { get: 'GET by id', list: 'list page with its total', insert: 'single insert' };
const mib = (bytes) => (bytes === undefined ? '–' : `${(bytes / 2 ** 20).toFixed(0)}`);
const MIB = 2 ** 20;
/** The issue's goals for the reference server. */
const GOALS = { idleAnon: 100 * MIB, loadAnon: 150 * MIB, startMs: 300, insert: 1.5 };

function rangeCell({ median, min, max, unanswered }) {
  if (unanswered) return `∞: PocketBase answered no request in ${unanswered} of the rounds`;
  return min === max ? ratio(median) : `${ratio(median)} (${ratio(min)}–${ratio(max)})`;
}

function throughputTable(results) {
  const lines = [
    '| scenario | documents | ours req/s | p50 | p99 | PocketBase req/s | p50 | p99 | ours ÷ PocketBase (req/s) | failed (ours / PB) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const kind of SCENARIOS) {
    for (const [size, figures] of Object.entries(results.sizes)) {
      const [a, b] = [figures.reference[kind], figures.pocketbase[kind]];
      lines.push(
        `| ${LABELS[kind]} | ${number(size)} | ${number(a.rps)} | ${ms(a.p50)} | ${ms(a.p99)} | ${number(b.rps)} | ${ms(b.p50)} | ${ms(b.p99)} | ${rangeCell(figures.ratios[kind])} | ${a.failed} / ${b.failed} |`,
      );
    }
  }
  return lines.join('\n');
}

function memoryTable(results) {
  const lines = [
    '| server | documents | idle: anon | idle: file | under GET + list: anon (peak) | file (peak) | idle after the load: anon | file |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [name, label] of [
    ['before', `reference server before (\`${results.beforeRevision}\`)`],
    ['reference', 'reference server'],
    ['pocketbase', 'PocketBase'],
  ]) {
    for (const [size, figures] of Object.entries(results.sizes)) {
      if (!figures[name]) continue;
      const { idle, load, after } = figures[name].memory;
      lines.push(
        `| ${label} | ${number(size)} | ${mib(idle.anon)} | ${mib(idle.file)} | ${mib(load.anon)} | ${mib(load.file)} | ${mib(after.anon)} | ${mib(after.file)} |`,
      );
    }
  }
  return lines.join('\n');
}

function goalsTable(results, start) {
  const rows = [];
  const verdict = (ok) => (ok ? '**met**' : '**not met**');
  for (const [size, figures] of Object.entries(results.sizes)) {
    const { idle, load } = figures.reference.memory;
    rows.push([
      `anonymous RSS idle, ${number(size)} documents`,
      '≤ 100 MiB',
      `${mib(idle.anon)} MiB`,
      verdict(idle.anon <= GOALS.idleAnon),
    ]);
    rows.push([
      `anonymous RSS under GET + list, ${number(size)} documents`,
      '≤ 150 MiB',
      `${mib(load.anon)} MiB`,
      verdict(load.anon <= GOALS.loadAnon),
    ]);
  }
  if (start) {
    rows.push([
      'start to first answer (first start)',
      '≤ 300 ms',
      `${ms(start.first.median)} ms`,
      verdict(start.first.median <= GOALS.startMs),
    ]);
    rows.push([
      'start to first answer (restart)',
      '≤ 300 ms',
      `${ms(start.restart.median)} ms`,
      verdict(start.restart.median <= GOALS.startMs),
    ]);
  }
  for (const [size, figures] of Object.entries(results.sizes)) {
    const r = figures.ratios.insert;
    rows.push([
      `single insert, ours ÷ PocketBase, ${number(size)} documents`,
      `≥ ${GOALS.insert}×`,
      rangeCell(r),
      verdict(r.median >= GOALS.insert),
    ]);
  }
  return [
    '| goal | target | measured | verdict |',
    '|---|---:|---:|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** Where the reference server answers fewer requests per second than PocketBase, holds more memory or starts later. */
function losses(results, start, pbStart) {
  const lines = [];
  if (start && pbStart && start.restart.median > pbStart.restart.median)
    lines.push(
      `start to first answer: ${ms(start.restart.median)} ms (restart; ${ms(start.first.median)} ms first start) against PocketBase's ${ms(pbStart.restart.median)} ms`,
    );
  for (const [size, figures] of Object.entries(results.sizes)) {
    for (const kind of SCENARIOS) {
      const r = figures.ratios[kind];
      if (r.median < 1)
        lines.push(
          `${LABELS[kind]} at ${number(size)} documents: ${ratio(r.median)} PocketBase's requests per second`,
        );
    }
    const [ours, theirs] = [figures.reference.memory, figures.pocketbase.memory];
    for (const [phase, label] of [
      ['idle', 'idle'],
      ['load', 'under GET + list'],
    ]) {
      if (ours[phase].anon > theirs[phase].anon)
        lines.push(
          `anonymous memory ${label} at ${number(size)} documents: ${mib(ours[phase].anon)} MiB against PocketBase's ${mib(theirs[phase].anon)} MiB`,
        );
    }
    if (ours.load.file > 2 * theirs.load.file)
      lines.push(
        `file-backed memory under GET + list at ${number(size)} documents: ${mib(ours.load.file)} MiB against PocketBase's ${mib(theirs.load.file)} MiB (SQLite's memory map of the database: pages the kernel can drop, which PocketBase reads into the page cache outside its RSS instead)`,
      );
  }
  return lines.length ? lines.map((line) => `- ${line}`).join('\n') : '- nowhere in this run';
}

function startTable(start, pbStart, beforeStart, beforeRevision) {
  const cell = (s) => `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})`;
  return [
    '| server | first start, empty data directory (ms) | restart over that directory (ms) |',
    '|---|---:|---:|',
    ...(beforeStart
      ? [
          `| reference server before (\`${beforeRevision}\`, same way) | ${cell(beforeStart.first)} | ${cell(beforeStart.restart)} |`,
        ]
      : []),
    `| reference server (\`node dist/bin.js\`, spawn to the first 200 on /healthz) | ${cell(start.first)} | ${cell(start.restart)} |`,
    `| PocketBase (\`pocketbase serve\`, spawn to the first 200 on /api/health) | ${cell(pbStart.first)} | ${cell(pbStart.restart)} |`,
  ].join('\n');
}

/** The earlier commit's reference server beside this one, when measured. */
function beforeTable(results) {
  const lines = [
    `| scenario | documents | before (\`${results.beforeRevision}\`) req/s | p99 | this checkout req/s | p99 | this ÷ before |`,
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const kind of SCENARIOS) {
    for (const [size, figures] of Object.entries(results.sizes)) {
      const [a, b] = [figures.before[kind], figures.reference[kind]];
      lines.push(
        `| ${LABELS[kind]} | ${number(size)} | ${number(a.rps)} | ${ms(a.p99)} | ${number(b.rps)} | ${ms(b.p99)} | ${ratio(b.rps / a.rps)} |`,
      );
    }
  }
  return lines.join('\n');
}

/** The section, headed `## PocketBase`. */
export function renderPocketBase(results, { start, pbStart, beforeStart, settings, command, date }) {
  const hasBefore = Object.values(results.sizes).some((figures) => figures.before);
  const shares = results.others;
  const worst = shares.length ? Math.max(...shares) : undefined;
  const middle = shares.length ? [...shares].sort((a, b) => a - b)[Math.floor(shares.length / 2)] : undefined;
  return `## PocketBase

Produced by \`${command}\` on ${date} (${cpus().length} cores, Node.js ${process.version}). The reference server
runs on SQLite at its default (\`synchronous=FULL\`: an acknowledged write survives a power loss); PocketBase
v${POCKETBASE_VERSION}, built with \`go install github.com/pocketbase/pocketbase/examples/base@v${POCKETBASE_VERSION}\`
(\`CGO_ENABLED=0\`, cached in \`bench/.cache/\`), runs at its default (\`synchronous=NORMAL\`, WAL: a power loss can
drop the last acknowledged writes; it also logs every request into its logs.db, as it does by default). PocketBase
is set up as a user would (\`pb_data\` in a directory of its own): a superuser from \`superuser upsert\`, an
\`orders\` collection with the benchmark orders' fields (\`customer\` and \`items\` JSON, \`total\` number, \`currency\`
and \`status\` text, \`created\`/\`updated\` autodates, an index on \`created\`), the same orders written straight into
its SQLite file (as the scale section does for the reference server), and every request sent with the superuser's
token. The reference server gets the development key. ${settings.connections} connections (autocannon, bench/lib/load.mjs),
${settings.warmup} s warm-up, ${settings.rounds} rounds of ${settings.duration} s per scenario; in each round the two
servers are measured back to back, in alternating order, each after a wait for an idle machine (servers included);
the ratio is the median of the rounds' own ratios.
The list page is 50 documents newest first with the total (ours \`?limit=50&sort=-_createdAt&skip=0…100\`,
PocketBase's \`?perPage=50&sort=-created&page=1…3\`, which counts the collection on every page). Inserts are removed
after each insert run, so the reads always see the seeded size. Other processes used a median ${percent(middle)}
(at most ${percent(worst)}) of the CPU during the measurements.

### Requests

${throughputTable(results)}

${
  hasBefore
    ? `The reference server of \`${results.beforeRevision}\` (before the memory and start-up changes), built from its own
checkout, ran in the same rounds:

${beforeTable(results)}

`
    : ''
}### Memory

Resident memory in MiB from \`/proc/<pid>/status\`: anonymous (\`RssAnon\`: heaps, stacks, what the process
allocated) apart from file-backed (\`RssFile\`: the executable, libraries and mapped database pages, which the kernel
can drop and read again). Idle is two seconds after seeding, before any request; the peak is sampled every 100 ms
during the measured GET and list runs; "idle after" is two seconds after the last round. The reference server's
anonymous memory is mostly V8's heap (the code and objects of Fastify, zod and the contract's schemas, the route
table, and the young generation that fills and empties under load) plus SQLite's page cache and Node's own;
its file-backed memory is the \`node\` executable and, at 1,000,000 documents, the database pages SQLite reads
through its memory map (\`DATAPLATFORM_SQLITE_MMAP_SIZE\`, 1 GiB by default), which the kernel can drop at will.

${memoryTable(results)}

### Start

${startTable(start, pbStart, beforeStart, results.beforeRevision)}

### Goals (issue 27)

${goalsTable(results, start)}

### Where the reference server loses

${losses(results, start, pbStart)}
`;
}
