import type { Violation } from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import { lazy } from '../lazy.js';
import type { ValidatorRow } from '../storage/schema.js';
import type { Storage } from '../storage/types.js';

/** The most failures a `schema_violation` lists. */
const MAX_ERRORS = 20;

/** How long a validator read (or its absence) is trusted on PostgreSQL, where another instance may change it. */
const SHARED_TRUST_MS = 1000;

/** A compiled JSON Schema check: the failures of a value, or null when it matches. */
type Compiled = (fields: unknown) => { path: string; message: string }[] | null;

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}
interface AjvValidate {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}
interface AjvInstance {
  compile(schema: object): AjvValidate;
}

/** Ajv with its JSON Schema 2020-12 meta-schema, loaded when a collection first has a validator. */
const loadAjv = lazy(async (): Promise<AjvInstance> => {
  const module = (await import('ajv/dist/2020.js')) as unknown as {
    default: (new (options: object) => AjvInstance) & { default?: new (options: object) => AjvInstance };
  };
  const Ajv2020 = module.default.default ?? module.default;
  // allErrors: report every failure at once; strict off: keywords Ajv does not know (formats, annotations
  // of other vocabularies) are ignored, as JSON Schema says, instead of refusing the schema.
  return new Ajv2020({ allErrors: true, strict: false });
});

/** Compiles a JSON Schema: 400 `validation_error` with the library's message when it is not a valid one. */
export async function compileSchema(schema: object): Promise<Compiled> {
  const ajv = await loadAjv();
  let validate: AjvValidate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new ApiError('validation_error', `Invalid JSON Schema: ${(error as Error).message}`, {
      in: 'body',
      field: 'schema',
    });
  }
  return (fields) => {
    if (validate(fields)) return null;
    return (validate.errors ?? []).slice(0, MAX_ERRORS).map((error) => ({
      path:
        error.keyword === 'required'
          ? `${error.instancePath}/${String(error.params.missingProperty)}`
          : error.instancePath,
      message: error.message ?? 'does not match the schema',
    }));
  };
}

/** The `schema_violation` of a document's failures. */
export function schemaViolation(collection: string, errors: { path: string; message: string }[]): Violation {
  const first = errors[0];
  return {
    code: 'schema_violation',
    message: `Document does not match the schema of collection "${collection}"${
      first ? `: ${first.path || '/'} ${first.message}` : ''
    }`,
    details: { errors },
  };
}

/** The check of one collection's strict validator: a violation for a document's fields, or null. */
export type Guard = (fields: Record<string, unknown>) => Violation | null;

interface Entry {
  at: number;
  /** The validator's version, to compile a schema once per version. */
  version: string | null;
  guard: Guard | null;
}

/**
 * The validators writes are checked against, compiled once per version of the schema and kept in memory. A
 * change made by this server takes effect at once; on PostgreSQL, a change made by another instance within one
 * second. A collection without a strict validator costs one read, and never loads Ajv.
 */
export class SchemaGuards {
  private readonly entries = new Map<string, Entry>();
  private readonly trustMs: number;

  constructor(private readonly storage: Storage) {
    this.trustMs = storage.engine === 'sqlite' ? Number.POSITIVE_INFINITY : SHARED_TRUST_MS;
  }

  /** The guard of a collection's strict validator, or null when writes to it are not checked. */
  async of(clusterId: string, collection: string): Promise<Guard | null> {
    const key = `${clusterId}\u0000${collection}`;
    const entry = this.entries.get(key);
    const now = Date.now();
    if (entry && now - entry.at < this.trustMs) return entry.guard;
    const row = await this.storage.schema.getValidator(clusterId, collection);
    const version = row && row.level === 'strict' ? `${row.updatedAt}\u0000${row.schema}` : null;
    if (entry && entry.version === version) {
      entry.at = now;
      return entry.guard;
    }
    const guard = row && version !== null ? await this.compile(row) : null;
    this.entries.set(key, { at: now, version, guard });
    return guard;
  }

  /** The guards of several collections (a batch), by collection; collections without one are left out. */
  async ofAll(clusterId: string, collections: Iterable<string>): Promise<Map<string, Guard>> {
    const out = new Map<string, Guard>();
    for (const collection of new Set(collections)) {
      const guard = await this.of(clusterId, collection);
      if (guard) out.set(collection, guard);
    }
    return out;
  }

  /** Forgets what is known of a collection's validator, after this server changed it. */
  forget(clusterId: string, collection: string): void {
    this.entries.delete(`${clusterId}\u0000${collection}`);
  }

  private async compile(row: ValidatorRow): Promise<Guard> {
    const check = await compileSchema(JSON.parse(row.schema) as object);
    return (fields) => {
      const errors = check(fields);
      return errors ? schemaViolation(row.collection, errors) : null;
    };
  }
}
