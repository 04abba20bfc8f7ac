/// <reference path="./ml-logistic-regression.d.ts" />
import type { ModelAlgorithm } from '@dataplatform/contract';
import { kmeans } from 'ml-kmeans';
import LogisticRegression from 'ml-logistic-regression';
import { Matrix } from 'ml-matrix';
import { RandomForestClassifier, RandomForestRegression } from 'ml-random-forest';
import MultivariateLinearRegression from 'ml-regression-multivariate-linear';

/** Hyperparameters a model was asked for (`ModelCreate.params`), with `seed` always set. */
export interface Params {
  seed: number;
  k?: number;
  maxIterations?: number;
  nEstimators?: number;
  maxDepth?: number;
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

function normalized(values: number[]): number[] {
  const sum = values.reduce((s, v) => s + v, 0);
  return values.map((v) => (sum > 0 ? v / sum : 0));
}

function withIntercept(x: number[][]): Matrix {
  return new Matrix(x.map((row) => [...row, 1]));
}

function linear(model: MultivariateLinearRegression): Fitted {
  return {
    predict: (x) => (model.predict(x) as number[][]).map((row) => row[0]!),
    // The inputs are standardized, so the magnitudes of the coefficients compare.
    importance: () => normalized(model.weights.slice(0, -1).map((w) => Math.abs(w[0]!))),
    toJSON: () => model.toJSON(),
  };
}

function logistic(model: LogisticRegression): Fitted {
  // The library's classifier `j` scores "not class j", so 1 - score is class j's; the scores are then normalized.
  const probabilities = (x: number[][]) => {
    const features = withIntercept(x);
    const scores = model.classifiers.map((c) => c.testScores(features));
    return x.map((_, i) => normalized(scores.map((s) => 1 - s[i]!)));
  };
  return {
    predict: (x) => probabilities(x).map((p) => p.indexOf(Math.max(...p))),
    probabilities,
    importance: () => {
      const columns = model.classifiers[0]!.weights.columns - 1;
      const sums = new Array<number>(columns).fill(0);
      for (const c of model.classifiers)
        for (let i = 0; i < columns; i++) sums[i]! += Math.abs(c.weights.get(0, i));
      return normalized(sums);
    },
    toJSON: () => model.toJSON(),
  };
}

function forestClassifier(model: RandomForestClassifier, classes: number): Fitted {
  return {
    predict: (x) => model.predict(x),
    probabilities: (x) => {
      const byClass = Array.from({ length: classes }, (_, c) => model.predictProbability(x, c));
      return x.map((_, i) => byClass.map((p) => p[i]!));
    },
    toJSON: () => model.toJSON(),
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

function forestOptions(params: Params) {
  return {
    seed: params.seed,
    nEstimators: params.nEstimators ?? 50,
    // Every feature for each tree (scikit-learn's default for regression); the bagged rows make the trees differ.
    maxFeatures: 1.0,
    replacement: true,
    useSampleBagging: true,
    noOOB: true,
    treeOptions: params.maxDepth ? { maxDepth: params.maxDepth } : {},
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
    const model = new LogisticRegression({
      numSteps: params.maxIterations ?? 500,
      // The library adds up the gradient over rows; dividing by their count makes the rate independent of it.
      learningRate: (params.learningRate ?? 0.5) / x.length,
    });
    model.train(withIntercept(x), Matrix.columnVector(y));
    return logistic(model);
  }
  if (algorithm === 'random_forest') {
    if (task === 'regression') {
      const model = new RandomForestRegression(forestOptions(params));
      model.train(x, y);
      return { predict: (rows) => model.predict(rows), toJSON: () => model.toJSON() };
    }
    const model = new RandomForestClassifier(forestOptions(params));
    model.train(x, y);
    return forestClassifier(model, classes);
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
  if (algorithm === 'logistic') return logistic(LogisticRegression.load(json));
  if (algorithm === 'random_forest') {
    if (task === 'regression') {
      const model = RandomForestRegression.load(json as Parameters<typeof RandomForestRegression.load>[0]);
      return { predict: (rows) => model.predict(rows), toJSON: () => model.toJSON() };
    }
    return forestClassifier(
      RandomForestClassifier.load(json as Parameters<typeof RandomForestClassifier.load>[0]),
      classes,
    );
  }
  return nearest((json as { centroids: number[][] }).centroids);
}
