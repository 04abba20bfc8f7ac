import { z } from 'zod';
import { fromQuery, label, listEnvelope, Timestamp } from './common.js';
import { CollectionName } from './document.js';
import { SQL_MAX_LENGTH } from './sql.js';

/** Where a dataset is: its rows being copied, copied, or failed. */
export const DATASET_STATUSES = ['building', 'ready', 'failed'] as const;

/** The type inferred for a field of a dataset. */
export const FIELD_TYPES = ['number', 'string', 'boolean', 'category'] as const;

/** A field type. */
export type FieldType = (typeof FIELD_TYPES)[number];

/** What a model learns: a number, a class, or groups without a target. */
export const MODEL_TASKS = ['regression', 'classification', 'clustering'] as const;

/** A model's task. */
export type ModelTask = (typeof MODEL_TASKS)[number];

/** The algorithms a model can be trained with. */
export const MODEL_ALGORITHMS = ['linear', 'logistic', 'random_forest', 'kmeans'] as const;

/** An algorithm. */
export type ModelAlgorithm = (typeof MODEL_ALGORITHMS)[number];

/** Where a model is: being trained, ready to predict, or failed. */
export const MODEL_STATUSES = ['training', 'ready', 'failed'] as const;

/** The most rows a dataset copies; the rest of the collection is left out (and `truncated` says so). */
export const MAX_DATASET_ROWS = 200_000;

/** The fewest rows a model is trained on (train and held-out rows together). */
export const MIN_TRAINING_ROWS = 10;

/** The most rows one online prediction takes. */
export const MAX_PREDICT_ROWS = 1000;

const Id = z.string().min(1).max(128);

/** Summary statistics of one field of a dataset. */
export const FieldSummary = z
  .object({
    name: z.string(),
    type: z.enum(FIELD_TYPES),
    count: z.number().int().min(0).meta({ description: 'Rows with a value' }),
    missing: z.number().int().min(0).meta({ description: 'Rows without one (absent or null)' }),
    min: z.number().optional().meta({ description: 'Numbers only' }),
    max: z.number().optional().meta({ description: 'Numbers only' }),
    mean: z.number().optional().meta({ description: 'Numbers only' }),
    std: z.number().optional().meta({ description: 'Numbers only: the population standard deviation' }),
    distinct: z.number().int().min(0).optional().meta({ description: 'Distinct values' }),
    top: z
      .array(z.object({ value: z.union([z.string(), z.boolean()]), count: z.number().int().min(0) }))
      .optional()
      .meta({ description: 'Strings, categories, booleans: the 10 most frequent values' }),
  })
  .meta({ id: 'FieldSummary', description: 'A field of a dataset: its inferred type and statistics.' });

/** A field summary. */
export type FieldSummary = z.infer<typeof FieldSummary>;

/** A dataset: a snapshot of a collection's rows. */
export const Dataset = z
  .object({
    _id: z.string(),
    clusterId: z.string(),
    name: z.string(),
    collection: z.string(),
    sql: z.string().nullable(),
    status: z.enum(DATASET_STATUSES),
    rowCount: z.number().int().min(0),
    truncated: z
      .boolean()
      .meta({ description: `True when the source had more than ${MAX_DATASET_ROWS} rows` }),
    fields: z.array(FieldSummary),
    failure: z.string().nullable().meta({ description: 'Why a failed dataset failed' }),
    createdAt: Timestamp,
    completedAt: Timestamp.nullable(),
  })
  .meta({
    id: 'Dataset',
    description:
      "A snapshot of a collection's rows (later writes do not change it), its fields and statistics.",
  });

/** A dataset. */
export type Dataset = z.infer<typeof Dataset>;

/** The datasets of a cluster, newest first. */
export const DatasetList = z
  .object({ data: z.array(Dataset) })
  .meta({ id: 'DatasetList', description: 'Datasets of a cluster, newest first.' });

/** A list of datasets. */
export type DatasetList = z.infer<typeof DatasetList>;

/** Body of a new dataset. */
export const DatasetCreate = z
  .strictObject({
    clusterId: Id.optional().meta({ description: "The cluster; the caller's default cluster when left out" }),
    name: label(128),
    collection: CollectionName,
    sql: z.string().min(1).max(SQL_MAX_LENGTH).optional().meta({
      description:
        'A SQL helper statement over `collection` choosing the rows (and columns); every document when left out',
      example: 'SELECT * FROM iris WHERE sepal_length > 4',
    }),
    fields: z
      .array(z.string().min(1).max(256))
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'The fields to keep; every top-level scalar field but `_id` when left out' }),
  })
  .meta({ id: 'DatasetCreate', description: 'Which rows a dataset copies.' });

/** Body of a new dataset, as the client sends it. */
export type DatasetCreate = z.input<typeof DatasetCreate>;

/** Query of the dataset and model lists. */
export const IntelligenceListQuery = z.object({
  clusterId: Id.optional().meta({
    description: 'A cluster the caller is a member of; their default cluster when left out',
  }),
});

/** Path of a dataset, model or route. */
export const IntelligenceParams = z.object({ id: Id });

/** Query of a page of dataset rows. */
export const DatasetRowsQuery = z.object({
  limit: fromQuery(
    z.coerce.number().int().min(1).max(1000).default(100).meta({ description: 'Page size, 1 to 1000' }),
  ),
  skip: fromQuery(z.coerce.number().int().min(0).default(0).meta({ description: 'Rows to skip' })),
});

/** A page of a dataset's rows, in the order they were copied. */
export const DatasetRows = listEnvelope(z.record(z.string(), z.unknown()), 'DatasetRows');

/** A page of dataset rows. */
export type DatasetRows = z.infer<typeof DatasetRows>;

/** Metrics measured on a model's held-out rows. */
export const ModelMetrics = z
  .object({
    rmse: z.number().optional().meta({ description: 'Regression: root mean squared error' }),
    r2: z.number().optional().meta({ description: 'Regression: coefficient of determination' }),
    accuracy: z.number().optional().meta({ description: 'Classification: share of rows predicted right' }),
    f1: z.number().optional().meta({ description: 'Classification: macro-averaged F1' }),
    silhouette: z.number().optional().meta({ description: 'Clustering: mean silhouette, -1 to 1' }),
  })
  .meta({ id: 'ModelMetrics', description: 'Metrics on the held-out rows only.' });

/** Metrics of a model. */
export type ModelMetrics = z.infer<typeof ModelMetrics>;

/** A model. */
export const Model = z
  .object({
    _id: z.string(),
    clusterId: z.string(),
    name: z.string(),
    datasetId: z.string(),
    status: z.enum(MODEL_STATUSES),
    task: z.enum(MODEL_TASKS),
    algorithm: z.enum(MODEL_ALGORITHMS),
    target: z.string().nullable(),
    features: z.array(z.string()),
    params: z.record(z.string(), z.unknown()),
    testFraction: z.number(),
    metrics: ModelMetrics,
    featureImportance: z
      .record(z.string(), z.number())
      .nullable()
      .meta({ description: 'By feature, summing to 1, where the algorithm has it; null otherwise' }),
    imputation: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).meta({
      description:
        'The value a missing feature takes: the training mean of a number, the most frequent value else',
    }),
    classes: z
      .array(z.union([z.string(), z.number(), z.boolean()]))
      .nullable()
      .meta({ description: 'Classification: the classes, in the order of `probabilities`' }),
    trainRows: z.number().int().min(0),
    testRows: z.number().int().min(0),
    failure: z.string().nullable(),
    createdAt: Timestamp,
    completedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Model', description: 'A model trained on a dataset, with metrics on its held-out rows.' });

/** A model. */
export type Model = z.infer<typeof Model>;

/** The models of a cluster, newest first. */
export const ModelList = z
  .object({ data: z.array(Model) })
  .meta({ id: 'ModelList', description: 'Models of a cluster, newest first.' });

/** A list of models. */
export type ModelList = z.infer<typeof ModelList>;

/** Body of a new model. */
export const ModelCreate = z
  .strictObject({
    name: label(128),
    datasetId: Id,
    task: z.enum(MODEL_TASKS),
    target: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .meta({ description: 'The field to predict; required for regression and classification' }),
    features: z
      .array(z.string().min(1).max(256))
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "The fields to learn from; every dataset field but the target's when left out" }),
    algorithm: z.enum(MODEL_ALGORITHMS).optional().meta({
      description: 'linear for regression, logistic for classification, kmeans for clustering when left out',
    }),
    params: z
      .strictObject({
        seed: z
          .number()
          .int()
          .min(0)
          .max(2 ** 31 - 1)
          .optional(),
        k: z.number().int().min(2).max(100).optional().meta({ description: 'kmeans: clusters (3)' }),
        maxIterations: z
          .number()
          .int()
          .min(1)
          .max(10_000)
          .optional()
          .meta({ description: 'kmeans (100), logistic: L-BFGS iterations (1000)' }),
        nEstimators: z.number().int().min(1).max(500).optional().meta({ description: 'random_forest (50)' }),
        maxDepth: z.number().int().min(1).max(64).optional().meta({ description: 'random_forest' }),
        learningRate: z.number().positive().max(100).optional().meta({
          description: 'No longer used: logistic regression is fitted by L-BFGS, which picks its own steps',
        }),
      })
      .optional()
      .meta({ description: 'Hyperparameters; `seed` fixes the split and the algorithm (1 when left out)' }),
    testFraction: z.number().min(0.05).max(0.5).optional().meta({ description: 'Held-out share (0.2)' }),
  })
  .meta({ id: 'ModelCreate', description: 'What to train, on which dataset.' });

/** Body of a new model, as the client sends it. */
export type ModelCreate = z.input<typeof ModelCreate>;

/** Body of a new model on the dashboard: a model of a dataset of `clusterId`. */
export const ModelCreateInCluster = ModelCreate.extend({
  clusterId: Id.optional().meta({
    description: "The dataset's cluster; the caller's default cluster when left out",
  }),
}).meta({ id: 'ModelCreateInCluster', description: 'What to train, on which dataset of which cluster.' });

/** Body of a new model on the dashboard, as the client sends it. */
export type ModelCreateInCluster = z.input<typeof ModelCreateInCluster>;

/** Body of an online prediction. */
export const PredictRequest = z
  .strictObject({
    rows: z
      .array(z.record(z.string(), z.unknown()))
      .min(1)
      .max(MAX_PREDICT_ROWS)
      .meta({ description: "Objects with the model's features; a missing one takes the imputed value" }),
  })
  .meta({ id: 'PredictRequest', description: 'Rows to predict.' });

/** Body of an online prediction, as the client sends it. */
export type PredictRequest = z.input<typeof PredictRequest>;

/** The answer of an online prediction. */
export const PredictResult = z
  .object({
    predictions: z
      .array(z.unknown())
      .meta({ description: "One per row, in the target's own type; a cluster number for clustering" }),
    probabilities: z
      .array(z.record(z.string(), z.number()))
      .optional()
      .meta({ description: 'Classification: per row, the probability of each class' }),
  })
  .meta({ id: 'PredictResult', description: 'Predictions, in the order of the rows.' });

/** The answer of an online prediction. */
export type PredictResult = z.infer<typeof PredictResult>;

/** Body of a batch prediction. */
export const BatchPredictionCreate = z
  .strictObject({
    modelId: Id,
    collection: CollectionName,
    sql: z.string().min(1).max(SQL_MAX_LENGTH).optional(),
    outputCollection: CollectionName,
  })
  .meta({
    id: 'BatchPredictionCreate',
    description: 'Which rows to predict and where to write the predictions.',
  });

/** Body of a batch prediction, as the client sends it. */
export type BatchPredictionCreate = z.input<typeof BatchPredictionCreate>;

/** What a dataset build job was asked to do. */
export const DatasetJobInput = z
  .object({
    datasetId: z.string(),
    fields: z
      .array(z.string())
      .nullable()
      .meta({ description: 'The fields asked for; null for every field' }),
  })
  .meta({ id: 'DatasetJobInput', description: 'The dataset a build copies rows into.' });

/** What a training job was asked to do. */
export const TrainingJobInput = z
  .object({ modelId: z.string() })
  .meta({ id: 'TrainingJobInput', description: 'The model a training job fits.' });

/** What a batch prediction job was asked to do. */
export const PredictionJobInput = z
  .object({
    modelId: z.string(),
    collection: z.string(),
    sql: z.string().nullable(),
    outputCollection: z.string(),
  })
  .meta({ id: 'PredictionJobInput', description: 'The model, the rows it predicts and where they go.' });
