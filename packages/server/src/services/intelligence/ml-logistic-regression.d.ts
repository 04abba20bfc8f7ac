// The package ships no types: the part of its API the engine uses.
declare module 'ml-logistic-regression' {
  import type { Matrix } from 'ml-matrix';

  interface TwoClasses {
    testScores(features: Matrix): number[];
    weights: Matrix;
  }

  /** One-vs-all logistic regression fitted by gradient descent. */
  export default class LogisticRegression {
    constructor(options?: { numSteps?: number; learningRate?: number });
    classifiers: TwoClasses[];
    numberClasses: number;
    train(features: Matrix, classes: Matrix): void;
    predict(features: Matrix): number[];
    toJSON(): unknown;
    static load(model: unknown): LogisticRegression;
  }
}
