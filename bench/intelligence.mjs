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
];

const METRIC = { regression: 'r2', classification: 'accuracy', clustering: 'silhouette' };

const py = python();
const dir = mkdtempSync(join(tmpdir(), 'dp-bench-intelligence-'));
execFileSync(py, [join(here, 'intelligence.py'), 'data', dir], { stdio: 'inherit' });

const ours = [];
for (const run of RUNS) {
  const rows = JSON.parse(readFileSync(join(dir, `${run.name}.json`), 'utf8'));
  // The held-out rows the engine picks (seed 1, 20 %), for scikit-learn to hold out the same.
  writeFileSync(join(dir, `${run.name}.split.json`), JSON.stringify(splitRows(rows.length, 0.2, 1).test));
  const fields = Object.keys(rows[0]).map((name) => summarize(name, rows));
  const features = fields.map((f) => f.name).filter((name) => name !== run.target);
  const start = performance.now();
  const result = train({
    rows,
    fields,
    task: run.task,
    algorithm: run.algorithm,
    target: run.task === 'clustering' ? null : run.target,
    features,
    params: { seed: 1 },
    testFraction: 0.2,
  });
  const seconds = (performance.now() - start) / 1000;
  const score = result.metrics[METRIC[run.task]];
  ours.push({ rows: rows.length, score, seconds });
  console.log(`${run.name} ${run.algorithm}: ${score.toFixed(4)} in ${seconds.toFixed(2)} s`);
}
const theirs = JSON.parse(
  execFileSync(py, [join(here, 'intelligence.py'), 'fit', dir, JSON.stringify(RUNS)], { encoding: 'utf8' }),
);

const sklearnVersion = execFileSync(py, ['-c', 'import sklearn; print(sklearn.__version__)'], {
  encoding: 'utf8',
}).trim();
const lines = RUNS.map((run, i) => {
  const metric = METRIC[run.task];
  const gap = ours[i].score - theirs[i].score;
  const spread = theirs[i].spread ? theirs[i].spread.map((v) => v.toFixed(4)).join(' – ') : '';
  return `| ${run.name} | ${ours[i].rows.toLocaleString('en-US')} | ${run.algorithm} | ${metric} | ${ours[i].score.toFixed(4)} | ${theirs[i].score.toFixed(4)} | ${gap >= 0 ? '+' : ''}${gap.toFixed(4)} | ${spread} | ${ours[i].seconds.toFixed(2)} s | ${theirs[i].seconds.toFixed(2)} s |`;
});
// The goal, row by row; a forest's miss is told apart from the spread its seed alone makes.
const missed = RUNS.flatMap((run, i) => {
  const gap = ours[i].score - theirs[i].score;
  if (Math.abs(gap) <= 0.02) return [];
  const [low, high] = theirs[i].spread ?? [];
  const inSpread = low !== undefined && ours[i].score >= low && ours[i].score <= high;
  return [
    `${run.name} ${run.algorithm} (${gap >= 0 ? '+' : ''}${gap.toFixed(4)}${inSpread ? ": inside scikit-learn's own range over seeds 0–19, so the gap is the forest's seed, not the algorithm" : ''})`,
  ];
});
const verdict =
  missed.length === 0
    ? `Goal of the issue (every held-out score within 0.02 of scikit-learn's on the same split): met by every row.`
    : `Goal of the issue (every held-out score within 0.02 of scikit-learn's on the same split): met by ${RUNS.length - missed.length} of ${RUNS.length} rows; missed by ${missed.join('; ')}.`;

const markdown = `## Intelligence engine

Command: \`pnpm bench:intelligence\`, ${new Date().toISOString().slice(0, 10)} (${cpus().length} cores, load ${loadavg()[0].toFixed(2)} at the start; scikit-learn ${sklearnVersion}).
Each row trains the engine's code (the training thread's \`train\`, in-process) and scikit-learn's same algorithm on
the same 80 % of the rows (the engine's split, seed 1), features standardized in both, and scores the other 20 %.
Training time is the engine's whole \`train\` (encoding, fit, metrics, feature importance) against scikit-learn's
\`fit\` alone; k-means is scored by the silhouette of the held-out rows. Iris, breast cancer and diabetes ship
inside scikit-learn; the 100,000-row sets are generated (numpy seed 7): 8 normal features, a linear target with
noise, and a yes/no label of the same with more noise. A random forest's score moves with its seed: the column
"seeds 0–19" is the range of scikit-learn's own scores over 20 seeds on the same split.

| set | rows | algorithm | metric | engine | scikit-learn | difference | scikit-learn, seeds 0–19 | engine training | scikit-learn training |
|---|---|---|---|---|---|---|---|---|---|
${lines.join('\n')}

${verdict}
`;
console.log(markdown);
writeSection(root, opts.out, 'Intelligence engine', markdown);
