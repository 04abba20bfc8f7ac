import { RandomForestClassifier, RandomForestRegression } from 'ml-random-forest';
import type { Fitted } from './algorithms.js';

/**
 * A random forest stored before the engine grew its own (forest.ts): ml-random-forest's trees, loaded so that those
 * models keep predicting after an upgrade. Nothing is trained with it any more.
 */
export function legacyForest(task: string, json: unknown, classes: number): Fitted {
  if (task === 'regression') {
    const model = RandomForestRegression.load(json as Parameters<typeof RandomForestRegression.load>[0]);
    return { predict: (rows) => model.predict(rows), toJSON: () => model.toJSON() };
  }
  const model = RandomForestClassifier.load(json as Parameters<typeof RandomForestClassifier.load>[0]);
  return {
    predict: (x) => model.predict(x),
    probabilities: (x) => {
      const byClass = Array.from({ length: classes }, (_, c) => model.predictProbability(x, c));
      return x.map((_, i) => byClass.map((p) => p[i]!));
    },
    toJSON: () => model.toJSON(),
  };
}
