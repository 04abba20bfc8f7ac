/// <reference path="./ml-logistic-regression.d.ts" />
import LogisticRegression from 'ml-logistic-regression';
import { Matrix } from 'ml-matrix';
import { type Fitted, normalized } from './algorithms.js';

/**
 * A logistic regression stored before the engine fitted its own (logistic.ts): ml-logistic-regression's one-vs-rest
 * classifiers, loaded so that those models keep predicting after an upgrade. Nothing is trained with it any more.
 */
export function legacyLogistic(json: unknown): Fitted {
  const model = LogisticRegression.load(json);
  // The library's classifier `j` scores "not class j", so 1 - score is class j's; the scores are then normalized.
  const probabilities = (x: number[][]) => {
    const features = new Matrix(x.map((row) => [...row, 1]));
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
