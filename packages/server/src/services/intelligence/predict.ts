import type { PredictResult } from '@dataplatform/contract';
import { type Fitted, load } from './algorithms.js';
import { encodeRow } from './encoding.js';
import type { Artifact } from './train.js';

/** A stored model made ready to predict: its artifact parsed and its algorithm loaded once. */
export interface Predictor {
  predict(rows: Record<string, unknown>[]): PredictResult;
}

/** The predictor of an artifact: predictions in the target's own type, probabilities by class for classification. */
export function predictorOf(artifactText: string): Predictor {
  const artifact = JSON.parse(artifactText) as Artifact;
  const fitted: Fitted = load(
    artifact.algorithm,
    artifact.task,
    artifact.fitted,
    artifact.classes?.length ?? 0,
  );
  return {
    predict(rows) {
      const x = rows.map((row) => encodeRow(artifact.encoding, row));
      const predicted = fitted.predict(x);
      const classes = artifact.classes;
      if (artifact.task !== 'classification' || !classes) return { predictions: predicted };
      const probabilities = fitted.probabilities?.(x);
      return {
        predictions: predicted.map((i) => classes[i]),
        ...(probabilities
          ? {
              probabilities: probabilities.map((p) =>
                Object.fromEntries(classes.map((c, i) => [String(c), p[i] ?? 0])),
              ),
            }
          : {}),
      };
    },
  };
}
