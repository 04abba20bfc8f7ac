import type { SqlRequest } from '@dataplatform/contract';
import { parseSql } from '@dataplatform/contract/sql';
import type { z } from 'zod';
import { ApiError } from '../http/errors.js';
import type { Storage } from '../storage/types.js';

/** The SQL helper: translates one statement with the contract's parser and lets the engine run the query. */
export class SqlService {
  constructor(private readonly storage: Storage) {}

  /** Runs the statement in the cluster; the answer is JSON text, rows as the engine stored them. */
  async run(clusterId: string, request: z.output<typeof SqlRequest>): Promise<string> {
    const query = parseSql(request.sql, request.params ?? []);
    if ('code' in query) throw new ApiError(query.code, query.message, query.details);
    const result = await this.storage.queries.run({ clusterId, collection: query.collection }, query);
    const data = 'count' in result ? `{"count":${result.count}}` : result.rows.join(',');
    return `{"data":[${data}],"query":${JSON.stringify(query)}}`;
  }
}
