/** Metrics of predictions against the truth: each measured by the caller on held-out rows only. */

/** Root mean squared error and the coefficient of determination. */
export function regressionMetrics(truth: readonly number[], predicted: readonly number[]) {
  const n = truth.length;
  const mean = truth.reduce((s, v) => s + v, 0) / n;
  let residual = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    residual += (truth[i]! - predicted[i]!) ** 2;
    total += (truth[i]! - mean) ** 2;
  }
  return { rmse: Math.sqrt(residual / n), r2: total === 0 ? 0 : 1 - residual / total };
}

/** Accuracy and macro-averaged F1 over the classes that occur in the truth or the predictions. */
export function classificationMetrics(truth: readonly number[], predicted: readonly number[]) {
  const n = truth.length;
  let right = 0;
  const classes = new Set([...truth, ...predicted]);
  let f1Sum = 0;
  for (const c of classes) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < n; i++) {
      if (predicted[i] === c && truth[i] === c) tp++;
      else if (predicted[i] === c) fp++;
      else if (truth[i] === c) fn++;
    }
    f1Sum += tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  }
  for (let i = 0; i < n; i++) if (truth[i] === predicted[i]) right++;
  return { accuracy: right / n, f1: f1Sum / classes.size };
}

function distance(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
}

/** The mean silhouette of the points (O(n²): the caller passes a sample); 0 with a single cluster. */
export function silhouette(points: readonly number[][], labels: readonly number[]): number {
  const clusters = new Set(labels);
  if (clusters.size < 2) return 0;
  let total = 0;
  for (let i = 0; i < points.length; i++) {
    const sums = new Map<number, { sum: number; count: number }>();
    for (let j = 0; j < points.length; j++) {
      if (i === j) continue;
      const entry = sums.get(labels[j]!) ?? { sum: 0, count: 0 };
      entry.sum += distance(points[i]!, points[j]!);
      entry.count++;
      sums.set(labels[j]!, entry);
    }
    const own = sums.get(labels[i]!);
    if (!own) continue; // alone in its cluster: 0
    const a = own.sum / own.count;
    let b = Number.POSITIVE_INFINITY;
    for (const [label, { sum, count }] of sums) if (label !== labels[i]) b = Math.min(b, sum / count);
    total += (b - a) / Math.max(a, b);
  }
  return total / points.length;
}
