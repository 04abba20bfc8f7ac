import type { ModelAlgorithm } from '@dataplatform/contract';
import { kmeans } from 'ml-kmeans';
import MultivariateLinearRegression from 'ml-regression-multivariate-linear';
import { fitForest, isForestJson, loadForest } from './forest.js';
import { legacyForest } from './legacy-forest.js';
import { legacyLogistic } from './legacy-logistic.js';
import { fitLogistic, type LogisticModel, logisticMagnitudes, logisticProbabilities } from './logistic.js';

/** Hyperparameters a model was asked for (`ModelCreate.params`), with `seed` always set. */
export interface Params {
  seed: number;
  k?: number;
  maxIterations?: number;
  nEstimators?: number;
  maxDepth?: number;
  /** Accepted for models made before the L-BFGS solver, which has no step size: no longer used. */
  learningRate?: number;
}

/** A fitted algorithm over encoded rows: a number per row (a value, a class index or a cluster index). */
export interface Fitted {
  predict(x: number[][]): number[];
  /** Classification: per row, the probability of each class index. */
  probabilities?(x: number[][]): number[][];
  /** Importance of each input column, where the algorithm itself has one. */
  importance?(): number[];
  toJSON(): unknown;
}

/** The values scaled to add up to 1 (all 0 when they add up to 0). */
export function normalized(values: number[]): number[] {
  const sum = values.reduce((s, v) => s + v, 0);
  return values.map((v) => (sum > 0 ? v / sum : 0));
}

function linear(model: MultivariateLinearRegression): Fitted {
  return {
    predict: (x) => (model.predict(x) as number[][]).map((row) => row[0]!),
    // The inputs are standardized, so the magnitudes of the coefficients compare.
    importance: () => normalized(model.weights.slice(0, -1).map((w) => Math.abs(w[0]!))),
    toJSON: () => model.toJSON(),
  };
}

function logistic(model: LogisticModel): Fitted {
  const probabilities = (x: number[][]) => logisticProbabilities(model, x);
  return {
    predict: (x) => probabilities(x).map((p) => p.indexOf(Math.max(...p))),
    probabilities,
    importance: () => normalized(logisticMagnitudes(model)),
    toJSON: () => model,
  };
}

function nearest(centroids: number[][]): Fitted {
  return {
    predict: (x) =>
      x.map((row) => {
        let best = 0;
        let bestDistance = Number.POSITIVE_INFINITY;
        centroids.forEach((centroid, c) => {
          const d = centroid.reduce((s, v, i) => s + (v - row[i]!) ** 2, 0);
          if (d < bestDistance) [best, bestDistance] = [c, d];
        });
        return best;
      }),
    toJSON: () => ({ centroids }),
  };
}

/** Fits the algorithm: `y` holds numbers (regression) or class indices (classification); clustering has none. */
export function fit(
  algorithm: ModelAlgorithm,
  task: 'regression' | 'classification' | 'clustering',
  x: number[][],
  y: number[],
  classes: number,
  params: Params,
): Fitted {
  if (algorithm === 'linear')
    return linear(
      new MultivariateLinearRegression(
        x,
        y.map((v) => [v]),
      ),
    );
  if (algorithm === 'logistic') {
    return logistic(fitLogistic(x, y, classes, { maxIterations: params.maxIterations ?? 1000 }));
  }
  if (algorithm === 'random_forest') {
    if (task === 'clustering') throw new Error('A random forest needs a target');
    return fitForest(x, y, {
      task,
      classes,
      seed: params.seed,
      ...(params.nEstimators ? { trees: params.nEstimators } : {}),
      ...(params.maxDepth ? { maxDepth: params.maxDepth } : {}),
    });
  }
  const result = kmeans(x, params.k ?? 3, {
    seed: params.seed,
    maxIterations: params.maxIterations ?? 100,
    initialization: 'kmeans++',
  });
  return nearest(result.centroids);
}

/** A fitted algorithm again from its JSON. */
export function load(algorithm: ModelAlgorithm, task: string, json: unknown, classes: number): Fitted {
  if (algorithm === 'linear')
    return linear(
      MultivariateLinearRegression.load(json as Parameters<typeof MultivariateLinearRegression.load>[0]),
    );
  if (algorithm === 'logistic')
    // Models trained before the L-BFGS solver hold ml-logistic-regression's JSON, and still predict with it.
    return (json as { kind?: string }).kind === 'softmax'
      ? logistic(json as LogisticModel)
      : legacyLogistic(json);
  if (algorithm === 'random_forest')
    // Forests trained before the engine grew its own (forest.ts) hold ml-random-forest's JSON.
    return isForestJson(json) ? loadForest(json) : legacyForest(task, json, classes);
  return nearest((json as { centroids: number[][] }).centroids);
}
