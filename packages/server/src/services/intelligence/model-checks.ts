import {
  type Dataset,
  MIN_TRAINING_ROWS,
  type ModelAlgorithm,
  type ModelCreate,
  type ModelTask,
} from '@dataplatform/contract';
import type { z } from 'zod';
import { ApiError } from '../../http/errors.js';

/** A number target of at most this many distinct values can be classified. */
const MAX_NUMBER_CLASSES = 20;

/** The algorithm of each task when none is named, and the ones that fit it. */
const ALGORITHMS: Record<ModelTask, readonly ModelAlgorithm[]> = {
  regression: ['linear', 'random_forest'],
  classification: ['logistic', 'random_forest'],
  clustering: ['kmeans'],
};

const refuse = (message: string, details?: Record<string, unknown>) =>
  new ApiError('validation_error', message, details);

/** What to train, once checked against the dataset. */
export interface CheckedModel {
  algorithm: ModelAlgorithm;
  target: string | null;
  features: string[];
}

/**
 * Checks a model's body against its dataset before anything is trained: 409 `conflict` for a dataset not ready;
 * 400 `validation_error` for an algorithm that does not fit the task, a missing, unknown or ill-typed target, an
 * unknown feature, or too few rows.
 */
export function checkModel(body: z.output<typeof ModelCreate>, dataset: Dataset): CheckedModel {
  if (dataset.status !== 'ready')
    throw new ApiError('conflict', `Dataset "${dataset._id}" is ${dataset.status}: a model needs it ready`);
  const algorithm = body.algorithm ?? ALGORITHMS[body.task][0]!;
  if (!ALGORITHMS[body.task].includes(algorithm))
    throw refuse(`${algorithm} does not do ${body.task}: use ${ALGORITHMS[body.task].join(' or ')}`);
  const byName = new Map(dataset.fields.map((field) => [field.name, field]));
  let target: string | null = null;
  if (body.task === 'clustering') {
    if (body.target !== undefined) throw refuse('Clustering has no target');
  } else {
    if (body.target === undefined) throw refuse(`${body.task} needs a target`);
    const field = byName.get(body.target);
    if (!field) throw refuse(`The dataset has no field "${body.target}"`, { field: body.target });
    if (body.task === 'regression' && field.type !== 'number')
      throw refuse(`A regression target must be a number; "${field.name}" is ${field.type}`);
    if (body.task === 'classification') {
      const fits =
        field.type === 'boolean' ||
        field.type === 'category' ||
        (field.type === 'number' && (field.distinct ?? 0) <= MAX_NUMBER_CLASSES);
      if (!fits)
        throw refuse(
          `A classification target must be a category, a boolean or a number of at most ${MAX_NUMBER_CLASSES} values; "${field.name}" is ${field.type === 'number' ? `a number of ${field.distinct} values` : field.type}`,
        );
      if ((field.distinct ?? 0) < 2) throw refuse(`The target "${field.name}" has fewer than 2 classes`);
    }
    target = field.name;
  }
  const features = body.features ?? dataset.fields.map((f) => f.name).filter((name) => name !== target);
  const unknown = features.filter((name) => !byName.has(name));
  if (unknown.length > 0) throw refuse(`The dataset has no field(s) ${unknown.join(', ')}`, { fields: unknown });
  if (target !== null && features.includes(target)) throw refuse('The target cannot be a feature');
  if (features.length === 0) throw refuse('A model needs at least one feature');
  const rows = target === null ? dataset.rowCount : byName.get(target)!.count;
  if (rows < MIN_TRAINING_ROWS)
    throw refuse(`A model needs at least ${MIN_TRAINING_ROWS} rows with a target; the dataset has ${rows}`);
  if (algorithm === 'kmeans' && (body.params?.k ?? 3) > rows) throw refuse('k is larger than the rows');
  return { algorithm, target, features };
}
