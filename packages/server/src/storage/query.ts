import type { CollectionQuery } from '@dataplatform/contract';
import type { CollectionRef, DocumentRow } from './documents.js';

/** What a collection query found: whole documents, projected objects (JSON text), or the number of matches. */
export type QueryResult = { documents: DocumentRow[] } | { rows: string[] } | { count: number };

/**
 * Runs the SQL helper's collection queries. Every value of the query (literals, parameters, field paths, keys)
 * is bound as a parameter of the engine's statement; the statement's text is the engine's own.
 */
export interface QueryStore {
  run(ref: CollectionRef, query: CollectionQuery): Promise<QueryResult>;
  /** The engine's plan of the query (EXPLAIN) and the collection indexes it uses, by their names. */
  explain(ref: CollectionRef, query: CollectionQuery): Promise<QueryPlan>;
}

/** How the engine runs a query. */
export interface QueryPlan {
  indexes: string[];
  plan: string[];
}
