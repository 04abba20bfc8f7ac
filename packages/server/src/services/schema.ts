import {
  type ClusterAction,
  checkClusterAccess,
  clusterNotFound,
  VALIDATOR_SCHEMA_LIMIT,
  type ValidationLevel,
} from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import type { ValidatorRow } from '../storage/schema.js';
import type { Storage } from '../storage/types.js';
import { compileSchema, type SchemaGuards } from './schema-guards.js';

/** A validator as the API answers it. */
function validatorOf(row: ValidatorRow) {
  return {
    collection: row.collection,
    schema: JSON.parse(row.schema) as Record<string, unknown>,
    level: row.level,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Who calls a dashboard schema route: a signed-in user, on a cluster they name or their default one. */
export interface SchemaCaller {
  sessionId: string;
  userId: string;
  clusterId: string | undefined;
}

/** Validators of collections and the collection list, for the dashboard (`/api/schema`) and keys (`/api/v1/schema`). */
export class SchemaService {
  constructor(
    private readonly storage: Storage,
    private readonly guards: SchemaGuards,
  ) {}

  /**
   * The cluster a session acts on, when the user's role there allows `action`: the one named, else the default;
   * 404 `not_found` when the user is no member of it, 403 `forbidden` when the role does not allow it.
   */
  async clusterOf(caller: SchemaCaller, action: ClusterAction): Promise<string> {
    const session = await this.storage.sessions.findForData(caller.sessionId, caller.clusterId ?? null);
    const cluster = session?.cluster;
    if (!cluster || cluster.status === 'deleting' || cluster.status === 'deleted')
      rejectViolation(clusterNotFound(caller.clusterId ?? 'default'));
    rejectViolation(checkClusterAccess(cluster!.role, action));
    return cluster!.id;
  }

  async collections(clusterId: string) {
    const [stats, validators] = await Promise.all([
      this.storage.schema.collections(clusterId),
      this.storage.schema.listValidators(clusterId),
    ]);
    const byName = new Map(validators.map((row) => [row.collection, row]));
    const names = new Set([...stats.map((s) => s.name), ...byName.keys()]);
    const sizes = new Map(stats.map((s) => [s.name, s]));
    const data = [...names].sort().map((name) => {
      const validator = byName.get(name);
      return {
        name,
        documentCount: Number(sizes.get(name)?.documentCount ?? 0),
        storageBytes: Number(sizes.get(name)?.storageBytes ?? 0),
        validation: validator
          ? { level: validator.level, schema: JSON.parse(validator.schema) as Record<string, unknown> }
          : null,
        indexes: [],
      };
    });
    return { data };
  }

  async getValidator(clusterId: string, collection: string) {
    const row = await this.storage.schema.getValidator(clusterId, collection);
    if (!row) throw noValidator(collection);
    return validatorOf(row);
  }

  async putValidator(
    clusterId: string,
    collection: string,
    input: { schema: Record<string, unknown>; level: ValidationLevel },
  ) {
    const text = JSON.stringify(input.schema);
    if (Buffer.byteLength(text) > VALIDATOR_SCHEMA_LIMIT)
      throw new ApiError(
        'validation_error',
        `A validator's schema may have at most ${VALIDATOR_SCHEMA_LIMIT} bytes`,
        {
          in: 'body',
          field: 'schema',
        },
      );
    // Refuses a schema that is not valid JSON Schema 2020-12 before anything is stored.
    await compileSchema(input.schema);
    const now = new Date().toISOString();
    const row = await this.storage.schema.putValidator({
      clusterId,
      collection,
      schema: text,
      level: input.level,
      createdAt: now,
      updatedAt: now,
    });
    this.guards.forget(clusterId, collection);
    return validatorOf(row);
  }

  async deleteValidator(clusterId: string, collection: string) {
    const removed = await this.storage.schema.deleteValidator(clusterId, collection);
    this.guards.forget(clusterId, collection);
    if (!removed) throw noValidator(collection);
    return { collection, deleted: true as const };
  }
}

function noValidator(collection: string): ApiError {
  return new ApiError('not_found', `Collection "${collection}" has no validator`, { collection });
}
