import { minimize } from './lbfgs.js';

/**
 * A fitted logistic regression, as stored. `weights` holds one row per scored class, each the coefficients of the
 * input columns then the intercept. Two classes have one row (the score of class 1; class 0 scores 0), more
 * classes one row each (softmax): the parameterization scikit-learn uses, so the L2 penalty means the same.
 */
export interface LogisticModel {
  kind: 'softmax';
  classes: number;
  columns: number;
  weights: number[];
}

export interface LogisticOptions {
  /** Inverse strength of the L2 penalty, as scikit-learn's `C` (1). */
  c?: number;
  /** L-BFGS iterations at most (1000). */
  maxIterations?: number;
  /** Converged when no gradient component is above this (scikit-learn's `tol`, 1e-4). */
  tolerance?: number;
}

/** Rows of scores: one per scored class. */
const scoredRows = (classes: number) => (classes === 2 ? 1 : classes);

/**
 * The objective scikit-learn's `LogisticRegression(C, solver="lbfgs")` minimizes, scaled as it scales it: the mean
 * log-loss (multinomial for more than two classes) plus ‖W‖² / (2·C·n), the intercepts not penalized. Answers the
 * value and writes the gradient. `x` is row-major, `n` rows of `d` columns.
 */
function objective(x: Float64Array, y: Int32Array, n: number, d: number, classes: number, c: number) {
  const rows = scoredRows(classes);
  const width = d + 1;
  const logits = new Float64Array(classes);
  const penalty = 1 / (c * n);
  return (w: Float64Array, gradient: Float64Array): number => {
    gradient.fill(0);
    let loss = 0;
    for (let i = 0; i < n; i++) {
      const offset = i * d;
      // Class 0 of two scores 0; otherwise class k scores row k.
      if (rows === 1) logits[0] = 0;
      for (let r = 0; r < rows; r++) {
        let z = w[r * width + d]!;
        for (let j = 0; j < d; j++) z += w[r * width + j]! * x[offset + j]!;
        logits[rows === 1 ? 1 : r] = z;
      }
      let max = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < classes; k++) max = Math.max(max, logits[k]!);
      let sum = 0;
      for (let k = 0; k < classes; k++) sum += Math.exp(logits[k]! - max);
      const logSum = max + Math.log(sum);
      loss += logSum - logits[y[i]!]!;
      // d loss / d score of row r: the class's probability less 1 for the row's own class.
      for (let r = 0; r < rows; r++) {
        const k = rows === 1 ? 1 : r;
        const residual = (Math.exp(logits[k]! - logSum) - (y[i] === k ? 1 : 0)) / n;
        if (residual === 0) continue;
        for (let j = 0; j < d; j++) gradient[r * width + j]! += residual * x[offset + j]!;
        gradient[r * width + d]! += residual;
      }
    }
    let squares = 0;
    for (let r = 0; r < rows; r++)
      for (let j = 0; j < d; j++) {
        const weight = w[r * width + j]!;
        squares += weight * weight;
        gradient[r * width + j]! += penalty * weight;
      }
    return loss / n + (penalty * squares) / 2;
  };
}

/**
 * Fits a logistic regression on encoded rows `x` and class indices `y` (0 to `classes` - 1) with L-BFGS from zero
 * weights, as scikit-learn does with its defaults (C = 1, tol = 1e-4).
 */
export function fitLogistic(
  x: readonly number[][],
  y: readonly number[],
  classes: number,
  options: LogisticOptions = {},
): LogisticModel {
  const n = x.length;
  const d = x[0]?.length ?? 0;
  const flat = new Float64Array(n * d);
  for (const [i, row] of x.entries()) flat.set(row, i * d);
  const start = new Float64Array(scoredRows(classes) * (d + 1));
  const { x: weights } = minimize(objective(flat, Int32Array.from(y), n, d, classes, options.c ?? 1), start, {
    maxIterations: options.maxIterations ?? 1000,
    gradientTolerance: options.tolerance ?? 1e-4,
  });
  return { kind: 'softmax', classes, columns: d, weights: Array.from(weights) };
}

/** Each row's probability of each class. */
export function logisticProbabilities(model: LogisticModel, x: readonly number[][]): number[][] {
  const { classes, columns: d, weights: w } = model;
  const rows = scoredRows(classes);
  return x.map((row) => {
    const logits = new Array<number>(classes).fill(0);
    for (let r = 0; r < rows; r++) {
      let z = w[r * (d + 1) + d]!;
      for (let j = 0; j < d; j++) z += w[r * (d + 1) + j]! * (row[j] ?? 0);
      logits[rows === 1 ? 1 : r] = z;
    }
    const max = Math.max(...logits);
    const exps = logits.map((z) => Math.exp(z - max));
    const sum = exps.reduce((s, v) => s + v, 0);
    return exps.map((v) => v / sum);
  });
}

/** Per input column, the magnitudes of its coefficients added up over the scored classes. */
export function logisticMagnitudes(model: LogisticModel): number[] {
  const { columns: d, weights: w } = model;
  return Array.from({ length: d }, (_, j) => {
    let sum = 0;
    for (let r = 0; r < scoredRows(model.classes); r++) sum += Math.abs(w[r * (d + 1) + j]!);
    return sum;
  });
}
