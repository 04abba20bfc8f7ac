/**
 * Limited-memory BFGS: minimizes a smooth function of many variables from its value and gradient, keeping only the
 * last few steps to approximate the inverse Hessian (Nocedal & Wright, "Numerical Optimization", 2nd ed.:
 * algorithm 7.4's two-loop recursion, and a line search for the strong Wolfe conditions, algorithms 3.5 and 3.6).
 * Written here because npm has no maintained L-BFGS for Node (the engine's logistic regression needs one to fit
 * scikit-learn's objective as scikit-learn's own L-BFGS does, in seconds rather than minutes).
 */

/** Writes the gradient at `x` into `gradient` and answers the value at `x`. */
export type Objective = (x: Float64Array, gradient: Float64Array) => number;

export interface MinimizeOptions {
  /** Iterations (line searches) at most; 1000 when left out. */
  maxIterations?: number;
  /** Converged when no gradient component is larger than this (scipy's `gtol`; scikit-learn passes 1e-4). */
  gradientTolerance?: number;
  /** Converged when one step lowers the value by less than this share of it (scipy's `ftol`, as scikit-learn sets it). */
  valueTolerance?: number;
  /** Steps remembered (scipy's default 10). */
  memory?: number;
}

export interface Minimum {
  x: Float64Array;
  value: number;
  iterations: number;
  /** False when the iterations ran out or no step along the search direction lowered the value. */
  converged: boolean;
}

/** The sufficient-decrease and curvature constants of the Wolfe conditions usual for quasi-Newton methods. */
const C1 = 1e-4;
const C2 = 0.9;
/** Function evaluations one line search may make (scikit-learn's `maxls`). */
const MAX_EVALUATIONS = 50;

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function maxAbs(a: Float64Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]!));
  return max;
}

/** A point probed along the search direction: `x + step * direction`, its value, gradient and slope. */
class Probe {
  readonly x: Float64Array;
  readonly gradient: Float64Array;
  value = 0;
  slope = 0;

  constructor(
    private readonly objective: Objective,
    private readonly origin: Float64Array,
    private readonly direction: Float64Array,
  ) {
    this.x = new Float64Array(origin.length);
    this.gradient = new Float64Array(origin.length);
  }

  at(step: number): this {
    for (let i = 0; i < this.x.length; i++) this.x[i] = this.origin[i]! + step * this.direction[i]!;
    this.value = this.objective(this.x, this.gradient);
    this.slope = dot(this.gradient, this.direction);
    return this;
  }
}

/**
 * A step along `direction` that meets the strong Wolfe conditions (the probe holds its point afterwards), or null
 * when none was found within `MAX_EVALUATIONS` evaluations. Widens the step until it brackets an acceptable one, then
 * narrows the bracket by safeguarded quadratic interpolation.
 */
function lineSearch(probe: Probe, value0: number, slope0: number, first: number): number | null {
  let evaluations = 0;
  const armijo = (step: number) => probe.value <= value0 + C1 * step * slope0;
  const curvature = () => Math.abs(probe.slope) <= -C2 * slope0;

  const zoom = (lo: number, loValue: number, loSlope: number, hi: number, hiValue: number) => {
    while (evaluations < MAX_EVALUATIONS) {
      // The minimum of the quadratic through (lo, value, slope) and (hi, value), kept inside the bracket.
      const width = hi - lo;
      const denominator = 2 * (hiValue - loValue - loSlope * width);
      let step = denominator > 0 ? lo - (loSlope * width * width) / denominator : lo + width / 2;
      const [low, high] = [Math.min(lo, hi), Math.max(lo, hi)];
      const margin = 0.1 * (high - low);
      step = Math.min(Math.max(step, low + margin), high - margin);
      probe.at(step);
      evaluations++;
      if (!armijo(step) || probe.value >= loValue) [hi, hiValue] = [step, probe.value];
      else {
        if (curvature()) return step;
        if (probe.slope * (hi - lo) >= 0) [hi, hiValue] = [lo, loValue];
        [lo, loValue, loSlope] = [step, probe.value, probe.slope];
      }
      if (Math.abs(hi - lo) < 1e-16 * Math.max(1, Math.abs(lo))) break;
    }
    // No Wolfe step: the low end still lowers the value enough, which is worth taking.
    if (lo > 0) {
      probe.at(lo);
      return lo;
    }
    return null;
  };

  let previous = 0;
  let previousValue = value0;
  let previousSlope = slope0;
  let step = first;
  while (evaluations < MAX_EVALUATIONS) {
    probe.at(step);
    evaluations++;
    if (!Number.isFinite(probe.value) || !armijo(step) || (previous > 0 && probe.value >= previousValue))
      return zoom(previous, previousValue, previousSlope, step, probe.value);
    if (curvature()) return step;
    if (probe.slope >= 0) return zoom(step, probe.value, probe.slope, previous, previousValue);
    [previous, previousValue, previousSlope] = [step, probe.value, probe.slope];
    step *= 2;
  }
  return null;
}

/** Minimizes `objective` from `start` (left unchanged). */
export function minimize(objective: Objective, start: Float64Array, options: MinimizeOptions = {}): Minimum {
  const maxIterations = options.maxIterations ?? 1000;
  const gradientTolerance = options.gradientTolerance ?? 1e-5;
  const valueTolerance = options.valueTolerance ?? 64 * Number.EPSILON;
  const memory = options.memory ?? 10;
  const n = start.length;
  let x: Float64Array = Float64Array.from(start);
  let gradient: Float64Array = new Float64Array(n);
  let value = objective(x, gradient);
  // The remembered steps s = x' - x and gradient changes y = g' - g, oldest first, with 1 / (y·s).
  const steps: Float64Array[] = [];
  const changes: Float64Array[] = [];
  const rhos: number[] = [];
  const direction = new Float64Array(n);
  const alphas = new Float64Array(memory);

  for (let iteration = 0; iteration < maxIterations; iteration++) {
    if (maxAbs(gradient) <= gradientTolerance) return { x, value, iterations: iteration, converged: true };
    // Two-loop recursion: direction = -H·g, H the inverse Hessian the remembered steps imply.
    for (let i = 0; i < n; i++) direction[i] = -gradient[i]!;
    for (let k = steps.length - 1; k >= 0; k--) {
      alphas[k] = rhos[k]! * dot(steps[k]!, direction);
      for (let i = 0; i < n; i++) direction[i]! -= alphas[k]! * changes[k]![i]!;
    }
    if (steps.length > 0) {
      // The initial H is a scaled identity of the last step's curvature, so a step of 1 is usually accepted.
      const last = steps.length - 1;
      const gamma = dot(steps[last]!, changes[last]!) / dot(changes[last]!, changes[last]!);
      for (let i = 0; i < n; i++) direction[i]! *= gamma;
    }
    for (let k = 0; k < steps.length; k++) {
      const beta = rhos[k]! * dot(changes[k]!, direction);
      for (let i = 0; i < n; i++) direction[i]! += (alphas[k]! - beta) * steps[k]![i]!;
    }
    const slope = dot(gradient, direction);
    if (!(slope < 0)) return { x, value, iterations: iteration, converged: false };
    // Without curvature yet, a first step of length 1 at most (the gradient's scale is unknown).
    const first = steps.length === 0 ? Math.min(1, 1 / Math.sqrt(dot(direction, direction))) : 1;
    const probe = new Probe(objective, x, direction);
    if (lineSearch(probe, value, slope, first) === null)
      return { x, value, iterations: iteration, converged: false };

    const step = new Float64Array(n);
    const change = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      step[i] = probe.x[i]! - x[i]!;
      change[i] = probe.gradient[i]! - gradient[i]!;
    }
    const curvature = dot(step, change);
    // A step without positive curvature would make H indefinite: it is left out of the memory.
    if (curvature > 0) {
      if (steps.length === memory) [steps.shift(), changes.shift(), rhos.shift()];
      steps.push(step);
      changes.push(change);
      rhos.push(1 / curvature);
    }
    const previous = value;
    [x, gradient, value] = [probe.x, probe.gradient, probe.value];
    if ((previous - value) / Math.max(Math.abs(previous), Math.abs(value), 1) <= valueTolerance)
      return { x, value, iterations: iteration + 1, converged: true };
  }
  return { x, value, iterations: maxIterations, converged: maxAbs(gradient) <= gradientTolerance };
}
