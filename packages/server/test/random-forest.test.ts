import { seeded } from '@dataplatform/contract';
import { RandomForestClassifier } from 'ml-random-forest';
import { describe, expect, it } from 'vitest';
import { load } from '../src/services/intelligence/algorithms.js';
import { fitForest, loadForest } from '../src/services/intelligence/forest.js';

/** `rows` rows of `features` uniform numbers in [0, 1), the same for a seed. */
function uniform(rows: number, features: number, seed: number): number[][] {
  const random = seeded(seed);
  return Array.from({ length: rows }, () => Array.from({ length: features }, () => random()));
}

function accuracy(predicted: number[], truth: number[]): number {
  return predicted.filter((p, i) => p === truth[i]).length / truth.length;
}

describe('the random forest', () => {
  // Three classes by two thresholds on the first feature; the other three features are noise.
  const classOf = (row: number[]) => (row[0]! < 0.3 ? 0 : row[0]! < 0.7 ? 1 : 2);
  const x = uniform(600, 4, 1);
  const y = x.map(classOf);
  const held = uniform(300, 4, 2);
  const truth = held.map(classOf);

  it('learns axis-aligned classes and finds the feature that decides them', () => {
    const forest = fitForest(x, y, { task: 'classification', classes: 3, seed: 7 });
    expect(accuracy(forest.predict(held), truth)).toBeGreaterThan(0.97);
    const importance = forest.importance();
    expect(importance.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 10);
    expect(importance[0]).toBeGreaterThan(0.8);
  });

  it('answers class probabilities that sum to 1 and agree with its predictions', () => {
    const forest = fitForest(x, y, { task: 'classification', classes: 3, seed: 7, trees: 20 });
    const probabilities = forest.probabilities(held);
    const predicted = forest.predict(held);
    probabilities.forEach((p, i) => {
      expect(p).toHaveLength(3);
      expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 10);
      expect(p.indexOf(Math.max(...p))).toBe(predicted[i]);
    });
  });

  it('grows the same forest from the same seed, and another from another seed', () => {
    const probe = uniform(200, 4, 3).map((row) => row.map((v) => 0.25 + v / 2));
    const options = { task: 'classification' as const, classes: 3, trees: 5 };
    const once = fitForest(x, y, { ...options, seed: 11 }).probabilities(probe);
    expect(fitForest(x, y, { ...options, seed: 11 }).probabilities(probe)).toEqual(once);
    expect(fitForest(x, y, { ...options, seed: 12 }).probabilities(probe)).not.toEqual(once);
  });

  it('predicts the same after a round trip through its stored JSON', () => {
    const forest = fitForest(x, y, { task: 'classification', classes: 3, seed: 5, trees: 10 });
    const stored = JSON.parse(JSON.stringify(forest.toJSON()));
    const again = loadForest(stored);
    expect(again.probabilities(held)).toEqual(forest.probabilities(held));
    expect(again.importance()).toEqual(forest.importance());
    expect(load('random_forest', 'classification', stored, 3).predict(held)).toEqual(forest.predict(held));
  });

  it('fits a regression: a step and a slope on two of five features', () => {
    const target = (row: number[]) => (row[1]! > 0.5 ? 10 : 0) + 4 * row[3]!;
    const train = uniform(800, 5, 21);
    const test = uniform(300, 5, 22);
    const forest = fitForest(train, train.map(target), { task: 'regression', classes: 0, seed: 3 });
    const truth = test.map(target);
    const predicted = forest.predict(test);
    const mean = truth.reduce((s, v) => s + v, 0) / truth.length;
    const residual = truth.reduce((s, v, i) => s + (v - predicted[i]!) ** 2, 0);
    const spread = truth.reduce((s, v) => s + (v - mean) ** 2, 0);
    expect(1 - residual / spread).toBeGreaterThan(0.97);
    const importance = forest.importance();
    expect(importance[1]! + importance[3]!).toBeGreaterThan(0.95);
    expect(importance[1]).toBeGreaterThan(importance[3]!);
  });

  it('stops at maxDepth: one level of splits leaves at most two values', () => {
    const train = uniform(300, 2, 31);
    const forest = fitForest(
      train,
      train.map((row) => row[0]! * 10),
      { task: 'regression', classes: 0, seed: 1, trees: 1, maxDepth: 1 },
    );
    expect(new Set(forest.predict(uniform(100, 2, 32))).size).toBeLessThanOrEqual(2);
  });

  it('keeps a pure node whole and splits only between distinct values', () => {
    // Every row alike but the target: no feature can split them, so each tree is one leaf of the mean.
    const same = Array.from({ length: 20 }, () => [1, 2]);
    const forest = fitForest(
      same,
      same.map((_, i) => i % 2),
      { task: 'classification', classes: 2, seed: 1, trees: 3 },
    );
    const [p] = forest.probabilities([[1, 2]]);
    expect(p![0]! + p![1]!).toBeCloseTo(1, 10);
    expect(p![0]).toBeGreaterThan(0);
    expect(p![1]).toBeGreaterThan(0);
  });

  it('still loads and predicts with a forest stored by ml-random-forest', () => {
    const legacy = new RandomForestClassifier({ seed: 1, nEstimators: 5, maxFeatures: 1.0, noOOB: true });
    legacy.train(x.slice(0, 200), y.slice(0, 200));
    const stored = JSON.parse(JSON.stringify(legacy.toJSON()));
    const loaded = load('random_forest', 'classification', stored, 3);
    expect(loaded.predict(held)).toEqual(legacy.predict(held));
    expect(accuracy(loaded.predict(held), truth)).toBeGreaterThan(0.9);
  });
});
