import { seeded } from '@dataplatform/contract';

/**
 * Random forests grown as scikit-learn's RandomForestClassifier and RandomForestRegressor grow them: each tree on a
 * bootstrap sample (drawn as a count per row, used as its weight), the best split of a node by Gini impurity
 * (classification) or squared error (regression) among features drawn at random for that node (√features for
 * classification, all of them for regression), a threshold halfway between neighbouring values, and nodes split
 * until they are pure (or `maxDepth`). Each feature's rows are sorted once for the forest; a tree keeps them sorted
 * down its nodes by stable partitions, so a level of a tree costs rows × features steps instead of a sort per node
 * (ml-random-forest, used before, took a minute for 2,000 rows).
 */

export interface ForestOptions {
  task: 'classification' | 'regression';
  /** Classification: how many classes `y` indexes. */
  classes: number;
  seed: number;
  trees?: number;
  maxDepth?: number;
}

/** One tree in preorder: an inner node's left child is the next node, its right child `next[i]`; a leaf has feature -1 and its value at `next[i]`. */
interface Tree {
  feature: Int32Array;
  threshold: Float64Array;
  next: Int32Array;
  /** A leaf's class probabilities (classification, `classes` each) or mean (regression). */
  values: Float64Array;
}

/** A fitted forest as stored: the trees' arrays in base64. */
export interface ForestJson {
  kind: 'forest';
  task: 'classification' | 'regression';
  classes: number;
  importance: number[];
  trees: { feature: string; threshold: string; next: string; values: string }[];
}

export interface Forest {
  predict(x: number[][]): number[];
  /** Classification: the mean of the trees' class probabilities, per row. */
  probabilities(x: number[][]): number[][];
  /** Mean decrease in impurity of each column, summing to 1. */
  importance(): number[];
  toJSON(): ForestJson;
}

/** Sample weights, sums and sorted orders shared by the trees of one forest. */
interface Data {
  rows: number;
  columns: Float64Array[];
  /** Each column's row numbers by value. */
  sorted: Int32Array[];
  y: Float64Array;
  /** Classes (classification), or 1: the width of a node's sums. */
  width: number;
  classification: boolean;
}

export function fitForest(x: number[][], y: number[], options: ForestOptions): Forest {
  const rows = x.length;
  const featureCount = x[0]?.length ?? 0;
  const classification = options.task === 'classification';
  const columns = Array.from({ length: featureCount }, (_, f) => Float64Array.from(x, (row) => row[f]!));
  const sorted = columns.map((column) =>
    Int32Array.from({ length: rows }, (_, i) => i).sort((a, b) => column[a]! - column[b]!),
  );
  const data: Data = {
    rows,
    columns,
    sorted,
    y: Float64Array.from(y),
    width: classification ? options.classes : 1,
    classification,
  };
  const random = seeded(options.seed);
  const maxFeatures = classification ? Math.max(1, Math.floor(Math.sqrt(featureCount))) : featureCount;
  const importance = new Float64Array(featureCount);
  const trees: Tree[] = [];
  for (let t = 0; t < (options.trees ?? 50); t++) {
    const treeImportance = new Float64Array(featureCount);
    trees.push(
      growTree(data, bootstrap(rows, random), random, maxFeatures, options.maxDepth, treeImportance),
    );
    const total = treeImportance.reduce((s, v) => s + v, 0);
    if (total > 0) for (let f = 0; f < featureCount; f++) importance[f]! += treeImportance[f]! / total;
  }
  return forest(options.task, data.width, trees, normalize(Array.from(importance)));
}

/** A forest again from its stored JSON. */
export function loadForest(json: ForestJson): Forest {
  const trees = json.trees.map((tree) => ({
    feature: new Int32Array(bytes(tree.feature)),
    threshold: new Float64Array(bytes(tree.threshold)),
    next: new Int32Array(bytes(tree.next)),
    values: new Float64Array(bytes(tree.values)),
  }));
  return forest(json.task, json.classes, trees, json.importance);
}

export function isForestJson(json: unknown): json is ForestJson {
  return (json as { kind?: string } | null)?.kind === 'forest';
}

function forest(task: ForestJson['task'], classes: number, trees: Tree[], importance: number[]): Forest {
  const width = task === 'classification' ? classes : 1;
  /** The mean of the trees' leaf values for one row. */
  const average = (row: number[]): Float64Array => {
    const sum = new Float64Array(width);
    for (const tree of trees) {
      let node = 0;
      while (tree.feature[node]! >= 0)
        node = row[tree.feature[node]!]! <= tree.threshold[node]! ? node + 1 : tree.next[node]!;
      const at = tree.next[node]! * width;
      for (let k = 0; k < width; k++) sum[k]! += tree.values[at + k]!;
    }
    for (let k = 0; k < width; k++) sum[k]! /= trees.length;
    return sum;
  };
  const probabilities = (x: number[][]) => x.map((row) => Array.from(average(row)));
  return {
    predict: (x) =>
      task === 'regression'
        ? x.map((row) => average(row)[0]!)
        : probabilities(x).map((p) => p.indexOf(Math.max(...p))),
    probabilities,
    importance: () => importance,
    toJSON: () => ({
      kind: 'forest',
      task,
      classes,
      importance,
      trees: trees.map((tree) => ({
        feature: base64(tree.feature),
        threshold: base64(tree.threshold),
        next: base64(tree.next),
        values: base64(tree.values),
      })),
    }),
  };
}

/** How often each row is drawn when `rows` rows are drawn with replacement. */
function bootstrap(rows: number, random: () => number): Float64Array {
  const weights = new Float64Array(rows);
  for (let i = 0; i < rows; i++) weights[Math.floor(random() * rows)]! += 1;
  return weights;
}

/** A node waiting to be grown: its rows are positions `start` to `end` of every order. */
interface Pending {
  start: number;
  end: number;
  depth: number;
  /** The inner node whose right child this is (-1 for the root and left children). */
  parent: number;
}

function growTree(
  data: Data,
  weights: Float64Array,
  random: () => number,
  maxFeatures: number,
  maxDepth: number | undefined,
  importance: Float64Array,
): Tree {
  const { columns, y, width, classification } = data;
  const featureCount = columns.length;
  // The drawn rows, in each column's order.
  const orders = data.sorted.map((order) => order.filter((row) => weights[row]! > 0));
  const count = orders[0]?.length ?? 0;
  const goesLeft = new Uint8Array(data.rows);
  const spare = new Int32Array(count);
  const features = Int32Array.from({ length: featureCount }, (_, f) => f);
  const total = new Float64Array(width);
  const left = new Float64Array(width);
  const feature: number[] = [];
  const threshold: number[] = [];
  const next: number[] = [];
  const values: number[] = [];
  const stack: Pending[] = [{ start: 0, end: count, depth: 0, parent: -1 }];

  while (stack.length > 0) {
    const { start, end, depth, parent } = stack.pop()!;
    const node = feature.length;
    if (parent >= 0) next[parent] = node;
    feature.push(-1);
    threshold.push(0);
    next.push(0);

    // The node's weighted sums, and whether its targets are all one value (a pure node is a leaf).
    total.fill(0);
    let weight = 0;
    let pure = true;
    const order0 = orders[0]!;
    const firstY = y[order0[start]!]!;
    for (let i = start; i < end; i++) {
      const row = order0[i]!;
      const w = weights[row]!;
      weight += w;
      if (classification) total[y[row]!]! += w;
      else total[0]! += w * y[row]!;
      if (y[row] !== firstY) pure = false;
    }

    const split =
      pure || end - start < 2 || (maxDepth !== undefined && depth >= maxDepth)
        ? null
        : bestSplit(start, end, weight);
    if (!split) {
      next[node] = values.length / width;
      for (let k = 0; k < width; k++) values.push(total[k]! / weight);
      continue;
    }
    feature[node] = split.feature;
    threshold[node] = split.threshold;
    importance[split.feature]! += split.gain;

    // Every other column's order keeps the left rows first, then the right ones, each still sorted.
    const chosen = orders[split.feature]!;
    for (let i = start; i < end; i++) goesLeft[chosen[i]!] = i < split.at ? 1 : 0;
    for (let f = 0; f < featureCount; f++) {
      if (f === split.feature) continue;
      const order = orders[f]!;
      let l = start;
      let r = 0;
      for (let i = start; i < end; i++) {
        const row = order[i]!;
        if (goesLeft[row]) order[l++] = row;
        else spare[r++] = row;
      }
      order.set(spare.subarray(0, r), l);
    }
    stack.push({ start: split.at, end, depth: depth + 1, parent: node });
    stack.push({ start, end: split.at, depth: depth + 1, parent: -1 });
  }

  return {
    feature: Int32Array.from(feature),
    threshold: Float64Array.from(threshold),
    next: Int32Array.from(next),
    values: Float64Array.from(values),
  };

  /**
   * The best split among features drawn at random: at least `maxFeatures` that are not constant in the node, and
   * more if none of those splits it. Maximizes Σ(left sums²)/left weight + Σ(right sums²)/right weight, which is
   * the least weighted Gini impurity or squared error of the two sides.
   */
  function bestSplit(start: number, end: number, weight: number) {
    let parentScore = 0;
    for (let k = 0; k < width; k++) parentScore += total[k]! ** 2;
    parentScore /= weight;
    let best: { feature: number; at: number; threshold: number; score: number } | null = null;
    let tried = 0;
    for (let drawn = 0; drawn < featureCount && (tried < maxFeatures || !best); drawn++) {
      // A partial Fisher–Yates shuffle draws the features without replacement.
      const pick = drawn + Math.floor(random() * (featureCount - drawn));
      const f = features[pick]!;
      features[pick] = features[drawn]!;
      features[drawn] = f;
      const order = orders[f]!;
      const column = columns[f]!;
      if (column[order[start]!] === column[order[end - 1]!]) continue;
      tried++;
      left.fill(0);
      let leftWeight = 0;
      // Σ sums² on each side, kept up to date as rows move from right to left.
      let leftSquares = 0;
      let rightSquares = parentScore * weight;
      for (let i = start; i < end - 1; i++) {
        const row = order[i]!;
        const w = weights[row]!;
        const k = classification ? y[row]! : 0;
        const moved = classification ? w : w * y[row]!;
        const before = left[k]!;
        const rightBefore = total[k]! - before;
        left[k] = before + moved;
        leftSquares += (before + moved) ** 2 - before ** 2;
        rightSquares += (rightBefore - moved) ** 2 - rightBefore ** 2;
        leftWeight += w;
        const value = column[row]!;
        const following = column[order[i + 1]!]!;
        if (value === following) continue;
        const score = leftSquares / leftWeight + rightSquares / (weight - leftWeight);
        if (!best || score > best.score) {
          const halfway = value / 2 + following / 2;
          best = { feature: f, at: i + 1, threshold: halfway === following ? value : halfway, score };
        }
      }
    }
    return best && { ...best, gain: best.score - parentScore };
  }
}

function normalize(values: number[]): number[] {
  const sum = values.reduce((s, v) => s + v, 0);
  return values.map((v) => (sum > 0 ? v / sum : 0));
}

function base64(array: Int32Array | Float64Array): string {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
}

/** Decoded base64 in a buffer of its own (typed arrays need their element size's alignment). */
function bytes(text: string): ArrayBuffer {
  const decoded = Buffer.from(text, 'base64');
  return decoded.buffer.slice(decoded.byteOffset, decoded.byteOffset + decoded.byteLength) as ArrayBuffer;
}
