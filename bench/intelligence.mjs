/**
 * `pnpm bench:intelligence`: the intelligence engine's training (services/intelligence/train.ts, the code the
 * training thread runs) against scikit-learn's same algorithm on the same held-out rows: accuracy, r2 or silhouette on
 * Iris, breast cancer and diabetes (shipped inside scikit-learn) and on two generated sets of 100,000 rows (fixed seed), and the
 * training time of each. scikit-learn comes from PyPI into a virtual environment under bench/node_modules/.cache.
 * Writes its section of docs/benchmarks.md. Options: --out docs/benchmarks.md
 * Run with tsx (the package script does), which loads the server's TypeScript.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { splitRows, summarize } from '@dataplatform/contract';
import { train } from '../packages/server/src/services/intelligence/train.ts';
import { writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: { out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') } },
});

/** A virtual environment with scikit-learn, made once. */
function python() {
  const venv = join(here, 'node_modules', '.cache', 'intelligence-venv');
  const bin = join(venv, 'bin', 'python');
  if (!existsSync(join(venv, 'ready'))) {
    mkdirSync(dirname(venv), { recursive: true });
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    execFileSync(bin, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', 'scikit-learn'], {
      stdio: 'inherit',
    });
    writeFileSync(join(venv, 'ready'), '');
  }
  return bin;
}

const RUNS = [
  { name: 'iris', task: 'classification', algorithm: 'logistic', target: 'species' },
  { name: 'iris', task: 'classification', algorithm: 'random_forest', target: 'species' },
  // Clustering leaves the species out and scores the held-out rows' silhouette.
  { name: 'iris', task: 'clustering', algorithm: 'kmeans', target: 'species' },
  { name: 'cancer', task: 'classification', algorithm: 'logistic', target: 'diagnosis' },
  { name: 'cancer', task: 'classification', algorithm: 'random_forest', target: 'diagnosis' },
  { name: 'diabetes', task: 'regression', algorithm: 'linear', target: 'progression' },
  { name: 'diabetes', task: 'regression', algorithm: 'random_forest', target: 'progression' },
  { name: 'regression100k', task: 'regression', algorithm: 'linear', target: 'y' },
  { name: 'classification100k', task: 'classification', algorithm: 'logistic', target: 'label' },
  // Fewer seeds at this size: each forest grows 50 full-depth trees on 80,000 rows.
  {
    name: 'classification100k',
    task: 'classification',
    algorithm: 'random_forest',
    target: 'label',
    seeds: 3,
  },
];

const METRIC = { regression: 'r2', classification: 'accuracy', clustering: 'silhouette' };

const py = python();
const dir = mkdtempSync(join(tmpdir(), 'dp-bench-intelligence-'));
execFileSync(py, [join(here, 'intelligence.py'), 'data', dir], { stdio: 'inherit' });

// A forest's score moves with its seed (the engine's seed also picks the split): forests are compared by their
// mean held-out score over several seeds, each seed's split and forest the same on both sides.
const FOREST_SEEDS = 10;
const seedsOf = (run) =>
  run.algorithm === 'random_forest'
    ? Array.from({ length: run.seeds ?? FOREST_SEEDS }, (_, i) => i + 1)
    : [1];
const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;

const ours = [];
for (const run of RUNS) {
  const rows = JSON.parse(readFileSync(join(dir, `${run.name}.json`), 'utf8'));
  const fields = Object.keys(rows[0]).map((name) => summarize(name, rows));
  const features = fields.map((f) => f.name).filter((name) => name !== run.target);
  const scores = [];
  let seconds;
  for (const seed of seedsOf(run)) {
    // The held-out rows the engine picks (20 %), for scikit-learn to hold out the same.
    writeFileSync(
      join(dir, `${run.name}.split.${seed}.json`),
      JSON.stringify(splitRows(rows.length, 0.2, seed).test),
    );
    const start = performance.now();
    const result = train({
      rows,
      fields,
      task: run.task,
      algorithm: run.algorithm,
      target: run.task === 'clustering' ? null : run.target,
      features,
      params: { seed },
      testFraction: 0.2,
    });
    seconds ??= (performance.now() - start) / 1000;
    scores.push(result.metrics[METRIC[run.task]]);
  }
  ours.push({ rows: rows.length, scores, score: mean(scores), seconds });
  console.log(
    `${run.name} ${run.algorithm}: ${mean(scores).toFixed(4)} (${scores.length} seeds), ${seconds.toFixed(2)} s`,
  );
}
const theirs = JSON.parse(
  execFileSync(
    py,
    [
      join(here, 'intelligence.py'),
      'fit',
      dir,
      JSON.stringify(RUNS.map((run) => ({ ...run, seeds: seedsOf(run) }))),
    ],
    {
      encoding: 'utf8',
    },
  ),
).map((fitted) => ({ ...fitted, score: mean(fitted.scores) }));

const sklearnVersion = execFileSync(py, ['-c', 'import sklearn; print(sklearn.__version__)'], {
  encoding: 'utf8',
}).trim();
const signed = (value) => `${value >= 0 ? '+' : ''}${value.toFixed(4)}`;
const lines = RUNS.map((run, i) => {
  const metric = METRIC[run.task];
  const gaps = ours[i].scores.map((score, s) => score - theirs[i].scores[s]);
  const perSeed = gaps.length > 1 ? `${signed(Math.min(...gaps))} – ${signed(Math.max(...gaps))}` : '';
  return `| ${run.name} | ${ours[i].rows.toLocaleString('en-US')} | ${run.algorithm} | ${gaps.length} | ${metric} | ${ours[i].score.toFixed(4)} | ${theirs[i].score.toFixed(4)} | ${signed(ours[i].score - theirs[i].score)} | ${perSeed} | ${ours[i].seconds.toFixed(2)} s | ${theirs[i].seconds.toFixed(2)} s |`;
});
const missed = RUNS.flatMap((run, i) => {
  const gap = ours[i].score - theirs[i].score;
  return Math.abs(gap) <= 0.02 ? [] : [`${run.name} ${run.algorithm} (${signed(gap)})`];
});
const goal =
  "Goal of the issue (every held-out score within 0.02 of scikit-learn's on the same split; forests by their mean over the seeds' splits)";
const verdict =
  missed.length === 0
    ? `${goal}: **met** by every row.`
    : `${goal}: met by ${RUNS.length - missed.length} of ${RUNS.length} rows; **missed** by ${missed.join('; ')}.`;

const markdown = `## Intelligence engine

Command: \`pnpm bench:intelligence\`, ${new Date().toISOString().slice(0, 10)} (${cpus().length} cores, load ${loadavg()[0].toFixed(2)} at the start; scikit-learn ${sklearnVersion}).
Each row trains the engine's code (the training thread's \`train\`, in-process) and scikit-learn's same algorithm on
the same 80 % of the rows (the engine's split for the seed), features standardized in both, and scores the other 20 %.
Training time is the engine's whole \`train\` (encoding, fit, metrics, feature importance) against scikit-learn's
\`fit\` alone; k-means is scored by the silhouette of the held-out rows. Iris, breast cancer and diabetes ship
inside scikit-learn; the 100,000-row sets are generated (numpy seed 7): 8 normal features, a linear target with
noise, and a yes/no label of the same with more noise. One seed (1) picks the split of every row but the random
forests: a forest's score moves with its seed by more than the goal's 0.02 (on one split, scikit-learn's own
forests range over 0.03 to 0.06 from seed to seed), so forests are trained with ${FOREST_SEEDS} seeds (1–${FOREST_SEEDS}; 3 on 100,000 rows), each seed
picking the split and seeding the forest on both sides, and compared by their mean held-out score; the column
"per seed" is the range of the differences seed by seed. Training times are of the first seed.

| set | rows | algorithm | seeds | metric | engine | scikit-learn | difference | per seed | engine training | scikit-learn training |
|---|---|---|---:|---|---|---|---|---|---|---|
${lines.join('\n')}

${verdict}
`;
console.log(markdown);
writeSection(root, opts.out, 'Intelligence engine', markdown);
