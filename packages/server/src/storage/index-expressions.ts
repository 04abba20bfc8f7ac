/**
 * The one spelling of an indexed path's expression per engine, used by the index's DDL and by the queries that
 * should be served by it: an engine uses an expression index only for the same expression. Only plain steps
 * (letters, digits, `_`) are ever written into SQL, which the index routes' path pattern guarantees and
 * `plainSteps` checks again for the queries.
 */

const PLAIN_STEP = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A field of an index and its order. */
export interface IndexFieldSpec {
  path: string;
  order: 'asc' | 'desc';
}

/** The steps of a path when every one is plain (safe to write into SQL), else null. */
export function plainSteps(path: readonly string[]): readonly string[] | null {
  return path.length > 0 && path.every((step) => PLAIN_STEP.test(step)) ? path : null;
}

/** SQLite: the JSON value at the path, as `json_extract` gives it. */
export function sqliteIndexExpression(steps: readonly string[]): string {
  return `json_extract(data, '$${steps.map((step) => `."${step}"`).join('')}')`;
}

/** PostgreSQL: the jsonb value at the path. */
export function postgresIndexExpression(steps: readonly string[]): string {
  return `(data #> '{${steps.join(',')}}')`;
}

/** The engine's name of an index: unique in the database, and tied to the collection's row. */
export function engineIndexName(collectionRowId: string | number, name: string): string {
  return `dpx_${collectionRowId}_${name}`;
}

/** The steps of an index field's dotted path; throws when one is not plain (the contract refuses those). */
export function stepsOf(path: string): string[] {
  const steps = path.split('.');
  if (!plainSteps(steps)) throw new Error(`not an indexable path: ${path}`);
  return steps;
}
