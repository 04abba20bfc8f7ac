import { seeded } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { minimize } from '../src/services/intelligence/lbfgs.js';
import { fitLogistic, logisticProbabilities } from '../src/services/intelligence/logistic.js';

describe('L-BFGS', () => {
  it('finds the minimum of the Rosenbrock function from its usual start', () => {
    const result = minimize(
      (x, g) => {
        const [a, b] = [x[0]!, x[1]!];
        g[0] = -2 * (1 - a) - 400 * a * (b - a * a);
        g[1] = 200 * (b - a * a);
        return (1 - a) ** 2 + 100 * (b - a * a) ** 2;
      },
      Float64Array.from([-1.2, 1]),
      { gradientTolerance: 1e-8 },
    );
    expect(result.converged).toBe(true);
    expect(result.x[0]).toBeCloseTo(1, 6);
    expect(result.x[1]).toBeCloseTo(1, 6);
  });

  it('solves an ill-conditioned quadratic: the minimum of ½xᵀAx - bᵀx is A⁻¹b', () => {
    // A diagonal with entries from 1 to 10,000, so plain gradient descent would crawl.
    const scales = Float64Array.from({ length: 20 }, (_, i) => 10 ** (i / 4.75));
    const result = minimize(
      (x, g) => {
        let value = 0;
        for (let i = 0; i < x.length; i++) {
          g[i] = scales[i]! * x[i]! - 1;
          value += 0.5 * scales[i]! * x[i]! ** 2 - x[i]!;
        }
        return value;
      },
      new Float64Array(20),
      { gradientTolerance: 1e-6, valueTolerance: 0 },
    );
    expect(result.converged).toBe(true);
    // scipy's L-BFGS-B takes 513 iterations here; gradient descent would take about a million.
    expect(result.iterations).toBeLessThan(1000);
    for (const [i, v] of result.x.entries()) expect(Math.abs(v * scales[i]! - 1)).toBeLessThan(1e-5);
  });
});

// Small sets whose optimum scikit-learn 1.9.1 computed: LogisticRegression(tol=1e-10, max_iter=10000) with its
// default C = 1, so the engine's objective (mean log-loss + ‖W‖²/(2Cn)) is checked, not just its predictions.
const binary = {
  x: [
    [0.0, 0.2],
    [0.4, -0.3],
    [1.0, 0.1],
    [1.3, 0.8],
    [2.1, 0.3],
    [2.4, 1.1],
    [3.0, 0.9],
    [3.2, 1.6],
    [1.8, 0.5],
    [1.5, 1.4],
  ],
  y: [0, 0, 0, 0, 1, 1, 1, 1, 0, 1],
  coef: [[1.162681, 0.679843]],
  intercept: [-2.408196],
};
const multi = {
  x: [
    [0.1, 0.2],
    [0.5, -0.1],
    [-0.3, 0.4],
    [0.2, 0.9],
    [2.0, 0.1],
    [2.4, 0.6],
    [1.7, -0.4],
    [2.2, 1.0],
    [0.9, 2.1],
    [1.3, 2.6],
    [0.6, 2.4],
    [1.6, 1.9],
    [1.2, 0.8],
    [0.4, 1.5],
    [1.9, 1.3],
  ],
  y: [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 1, 2, 0],
  coef: [
    [-0.693747, -0.539982],
    [0.994527, -0.810037],
    [-0.30078, 1.350019],
  ],
  intercept: [1.500125, -0.32337, -1.176755],
};

/** The largest difference of two weight lists (scikit-learn's are given to six places). */
const furthest = (a: number[], b: number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));

/** The weights as stored: per scored class, the coefficients then the intercept. */
const stored = (set: { coef: number[][]; intercept: number[] }) =>
  set.coef.flatMap((row, r) => [...row, set.intercept[r]!]);

describe('logistic regression by L-BFGS', () => {
  it('reaches scikit-learn’s optimum on a two-class set that is almost separable', () => {
    const model = fitLogistic(binary.x, binary.y, 2, { tolerance: 1e-9 });
    expect(model.weights).toHaveLength(3);
    expect(furthest(model.weights, stored(binary))).toBeLessThan(1e-4);
  });

  it('reaches scikit-learn’s multinomial optimum on three classes, probabilities adding up to 1', () => {
    const model = fitLogistic(multi.x, multi.y, 3, { tolerance: 1e-9 });
    expect(model.weights).toHaveLength(9);
    expect(furthest(model.weights, stored(multi))).toBeLessThan(1e-4);
    for (const p of logisticProbabilities(model, multi.x)) {
      expect(p).toHaveLength(3);
      expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    }
  });

  it('recovers the coefficients that generated the labels when the penalty is weak', () => {
    // P(class 1) = σ(0.5 + 2a - b): with 20,000 rows the fitted coefficients are within a few hundredths.
    const random = seeded(3);
    const x: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const [a, b] = [random() * 4 - 2, random() * 4 - 2];
      x.push([a, b]);
      y.push(random() < 1 / (1 + Math.exp(-(0.5 + 2 * a - b))) ? 1 : 0);
    }
    const model = fitLogistic(x, y, 2, { c: 1e6 });
    const [wa, wb, intercept] = model.weights;
    expect(wa).toBeCloseTo(2, 0);
    expect(Math.abs(wa! - 2)).toBeLessThan(0.1);
    expect(Math.abs(wb! + 1)).toBeLessThan(0.1);
    expect(Math.abs(intercept! - 0.5)).toBeLessThan(0.1);
  });

  it('separates the classes of a perfectly separable set without its weights running away', () => {
    const x = [[-2], [-1.5], [-1], [-0.5], [0.5], [1], [1.5], [2]];
    const y = [0, 0, 0, 0, 1, 1, 1, 1];
    const model = fitLogistic(x, y, 2);
    // The penalty keeps the optimum finite; every row is on its side.
    expect(Number.isFinite(model.weights[0])).toBe(true);
    const p = logisticProbabilities(model, x);
    expect(p.map((row) => row.indexOf(Math.max(...row)))).toEqual(y);
  });
});
