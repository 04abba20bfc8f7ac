import type { SqlRequest } from '@dataplatform/contract';
import type { z } from 'zod';
import { documentText } from '../document-text.js';
import { ApiError } from '../http/errors.js';
import { lazy } from '../lazy.js';
import type { QueryResult } from '../storage/query.js';
import type { Storage } from '../storage/types.js';

/** The contract's SQL parser (node-sql-parser's grammar, the largest module of the server), loaded by the first statement. */
const parser = lazy(() => import('@dataplatform/contract/sql'));

/** The SQL helper: translates one statement with the contract's parser and lets the engine run the query. */
export class SqlService {
  constructor(private readonly storage: Storage) {}

  /** Runs the statement in the cluster; the answer is JSON text, rows as the engine stored them. */
  async run(clusterId: string, request: z.output<typeof SqlRequest>): Promise<string> {
    const { parseSql } = await parser();
    const query = parseSql(request.sql, request.params ?? []);
    if ('code' in query) throw new ApiError(query.code, query.message, query.details);
    const ref = { clusterId, collection: query.collection };
    const result = await this.storage.queries.run(ref, query);
    const explain = request.explain
      ? `,"explain":${JSON.stringify(await this.storage.queries.explain(ref, query))}`
      : '';
    return `{"data":[${dataText(result)}],"query":${JSON.stringify(query)}${explain}}`;
  }
}

/** The items of the answer's `data`: documents composed from their rows, projections as the engine built them. */
function dataText(result: QueryResult): string {
  if ('count' in result) return `{"count":${result.count}}`;
  if ('documents' in result) return result.documents.map(documentText).join(',');
  return result.rows.join(',');
}
