import { z } from 'zod';
import { fromQuery, Timestamp } from './common.js';
import { CollectionName } from './document.js';

/** How a validator is applied: `strict` refuses every write whose document does not match, `off` keeps it stored but unused. */
export const VALIDATION_LEVELS = ['strict', 'off'] as const;

/** A validation level. */
export type ValidationLevel = (typeof VALIDATION_LEVELS)[number];

/** The most bytes of a validator's JSON Schema, as JSON text. */
export const VALIDATOR_SCHEMA_LIMIT = 64 * 1024;

/** Request to set a collection's validator. */
export const ValidatorInput = z
  .strictObject({
    schema: z.record(z.string(), z.unknown()).meta({
      description:
        "A JSON Schema (draft 2020-12) that each document of the collection must match, checked against the caller's fields (without `_id`, `_createdAt`, `_updatedAt`). An invalid schema is 400 `validation_error` naming the problem. At most 64 KiB as JSON.",
      example: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } },
    }),
    level: z.enum(VALIDATION_LEVELS).default('strict').meta({
      description:
        '`strict` (the default) enforces the schema on every write; `off` keeps it without enforcing',
    }),
  })
  .meta({ description: 'The JSON Schema and level of a collection validator.' });

/** A collection's validator as stored. */
export const Validator = z
  .object({
    collection: z.string(),
    schema: z.record(z.string(), z.unknown()),
    level: z.enum(VALIDATION_LEVELS),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Validator', description: 'The JSON Schema that writes to a collection are checked against.' });

/** One failure of a document against a validator. */
export const SchemaError = z
  .object({
    path: z.string().meta({
      description: 'JSON Pointer of the failing value in the document ("" for the document itself)',
    }),
    message: z.string(),
  })
  .meta({ id: 'SchemaError', description: 'Where and why a document does not match its collection schema.' });

/** The sort order of an indexed field. */
export const INDEX_ORDERS = ['asc', 'desc'] as const;

/** One field of an index. */
export const IndexField = z
  .strictObject({
    path: z.string().meta({ description: 'Dotted field path, e.g. `address.city`' }),
    order: z.enum(INDEX_ORDERS).default('asc'),
  })
  .meta({ id: 'IndexField', description: 'A field of an index and its order.' });

/** What an index name looks like; the server names an index after its fields when the request does not. */
export const INDEX_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

/** A field path an index can cover: dotted steps of letters, digits and `_`, each starting with a letter or `_`. */
export const INDEX_PATH_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,7}$/;

/** The most indexes a collection may have. */
export const MAX_INDEXES_PER_COLLECTION = 16;

/** The most fields of one index. */
export const MAX_INDEX_FIELDS = 8;

/** Request to create an index. */
export const IndexCreate = z
  .strictObject({
    name: z.string().regex(INDEX_NAME_PATTERN).optional().meta({
      description:
        'Letters, digits and `_`, at most 40, starting with a letter; made from the fields when left out',
    }),
    fields: z
      .array(
        z.strictObject({
          path: z.string().regex(INDEX_PATH_PATTERN).meta({
            description:
              'Dotted field path of letters, digits and `_` (e.g. `address.city`); system fields are not indexable',
          }),
          order: z.enum(INDEX_ORDERS).default('asc'),
        }),
      )
      .min(1)
      .max(MAX_INDEX_FIELDS),
    unique: z.boolean().default(false).meta({
      description:
        'Refuse a write that would give two documents the same values (documents missing a field never collide)',
    }),
  })
  .meta({ description: 'The fields, order and uniqueness of a new index.' });

/** An index of a collection. */
export const Index = z
  .object({
    name: z.string(),
    fields: z.array(IndexField),
    unique: z.boolean(),
    status: z
      .enum(['building', 'ready'])
      .meta({ description: 'Writes already honour a building unique index' }),
    createdAt: Timestamp,
  })
  .meta({ id: 'Index', description: 'An index of a collection, kept by the storage engine.' });

/** The indexes of a collection. */
export const IndexList = z
  .object({ data: z.array(Index) })
  .meta({ id: 'IndexList', description: 'The indexes of a collection, by name.' });

/** Path of one index. */
export const IndexParams = z.object({ collection: CollectionName, name: z.string().min(1).max(64) });

/** A collection of a cluster with its size, validator and indexes. */
export const CollectionInfo = z
  .object({
    name: z.string(),
    documentCount: z.number().int().min(0),
    storageBytes: z.number().int().min(0).meta({ description: "Bytes of the documents' JSON text" }),
    validation: z
      .object({ level: z.enum(VALIDATION_LEVELS), schema: z.record(z.string(), z.unknown()) })
      .nullable()
      .meta({ description: "The collection's validator, or null when it has none" }),
    indexes: z.array(Index),
  })
  .meta({
    id: 'CollectionInfo',
    description: 'A collection with its document count, size, validator and indexes.',
  });

/** The collections of a cluster. */
export const CollectionInfoList = z
  .object({ data: z.array(CollectionInfo) })
  .meta({ id: 'CollectionInfoList', description: 'Every collection of the cluster, by name.' });

/** Which cluster a schema route of the dashboard acts on. */
export const SchemaClusterQuery = z.object({
  clusterId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({ description: 'A cluster the caller is a member of; their default cluster when left out' }),
});

/** Path of a collection's schema routes. */
export const SchemaCollectionParams = z.object({ collection: CollectionName });

/** Answer of removing a validator. */
export const ValidatorDeleted = z
  .object({ collection: z.string(), deleted: z.literal(true) })
  .meta({ id: 'ValidatorDeleted', description: 'Confirms that the collection has no validator any more.' });

/** The most documents `infer` reads. */
export const MAX_INFER_SAMPLE = 1000;

/** Query of `infer`: how many documents to read, and on which cluster. */
export const InferQuery = z.object({
  sample: fromQuery(
    z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_INFER_SAMPLE)
      .default(100)
      .meta({ description: `Documents to read, newest first, 1 to ${MAX_INFER_SAMPLE}` }),
  ),
});

/** A schema proposed from a sample of a collection's documents. */
export const InferredSchema = z
  .object({
    collection: z.string(),
    sampled: z.number().int().min(0).meta({ description: 'Documents read' }),
    schema: z.record(z.string(), z.unknown()).meta({
      description:
        'A JSON Schema (draft 2020-12) every sampled document matches: the type of each field seen, `required` for the fields every sampled document has',
    }),
  })
  .meta({ id: 'InferredSchema', description: "A proposal for a collection's validator." });

/** Request to set a collection's validator (`level` defaults to `strict`). */
export type ValidatorInput = z.input<typeof ValidatorInput>;

/** A collection's validator as stored. */
export type Validator = z.infer<typeof Validator>;

/** Answer of removing a validator. */
export type ValidatorDeleted = z.infer<typeof ValidatorDeleted>;

/** Request to create an index (`order` defaults to `asc`, `unique` to false). */
export type IndexCreate = z.input<typeof IndexCreate>;

/** An index of a collection. */
export type Index = z.infer<typeof Index>;

/** The indexes of a collection. */
export type IndexList = z.infer<typeof IndexList>;

/** A collection of a cluster with its size, validator and indexes. */
export type CollectionInfo = z.infer<typeof CollectionInfo>;

/** The collections of a cluster. */
export type CollectionInfoList = z.infer<typeof CollectionInfoList>;

/** A schema proposed from a sample of a collection's documents. */
export type InferredSchema = z.infer<typeof InferredSchema>;
