import type { CollectionQuery } from '@dataplatform/contract';
import { ApiError } from '../../http/errors.js';
import { lazy } from '../../lazy.js';
import type { DocumentRow } from '../../storage/documents.js';
import type { Storage } from '../../storage/types.js';

const parser = lazy(() => import('@dataplatform/contract/sql'));

/** Rows read per page. */
const PAGE = 1000;

/** Rows of a collection as a dataset or a batch prediction reads them: the document's fields and its `_id`. */
export type SourceRow = Record<string, unknown>;

const rowOf = (doc: DocumentRow): SourceRow => ({ _id: doc.id, ...(JSON.parse(doc.data) as object) });

/**
 * The query of a SQL helper statement over `collection`, or 400 `invalid_sql` (malformed, over another collection,
 * or a count). `paged` when the statement has no LIMIT of its own, so every row it selects is read page by page.
 */
export async function parseSource(
  collection: string,
  sql: string,
): Promise<{ query: CollectionQuery; paged: boolean }> {
  const { parseSql } = await parser();
  const query = parseSql(sql, []);
  if ('code' in query) throw new ApiError(query.code, query.message, query.details);
  if (query.collection !== collection)
    throw new ApiError('invalid_sql', `The statement reads "${query.collection}", not "${collection}"`);
  if (query.select.kind === 'count' || query.select.kind === 'groups')
    throw new ApiError('invalid_sql', 'A dataset is made of rows: the statement must select fields or *');
  return { query, paged: !/\blimit\b/i.test(sql) };
}

/**
 * Reads up to `max` rows of the collection (and whether there were more): without `sql`, every document from one
 * snapshot of the database, by id; with it, the rows it selects.
 */
export async function readSource(
  storage: Storage,
  clusterId: string,
  collection: string,
  sql: string | null,
  max: number,
): Promise<{ rows: SourceRow[]; truncated: boolean }> {
  const rows: SourceRow[] = [];
  if (sql === null) {
    await storage.backups.snapshot(clusterId, async (reader) => {
      let after = '';
      while (rows.length <= max) {
        const page = await reader.documents(collection, after, PAGE);
        rows.push(...page.map(rowOf));
        if (page.length < PAGE) break;
        after = page[page.length - 1]!.id;
      }
    });
  } else {
    const { query, paged } = await parseSource(collection, sql);
    const ref = { clusterId, collection };
    for (let skip = query.skip; rows.length <= max; skip += PAGE) {
      const result = await storage.queries.run(ref, paged ? { ...query, skip, limit: PAGE } : query);
      const page =
        'documents' in result
          ? result.documents.map(rowOf)
          : 'rows' in result
            ? result.rows.map((text) => JSON.parse(text) as SourceRow)
            : [];
      rows.push(...page);
      if (!paged || page.length < PAGE) break;
    }
  }
  return { rows: rows.slice(0, max), truncated: rows.length > max };
}
