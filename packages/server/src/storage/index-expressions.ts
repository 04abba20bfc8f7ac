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

/** SQLite: a JSON path written into SQL, `'$."a"."b"'`. */
export function sqlitePathLiteral(steps: readonly string[]): string {
  return `'$${steps.map((step) => `."${step}"`).join('')}'`;
}

/** SQLite: the JSON value at the path, as `json_extract` gives it. */
export function sqliteIndexExpression(steps: readonly string[]): string {
  return `json_extract(data, ${sqlitePathLiteral(steps)})`;
}

/** PostgreSQL: the jsonb value at the path. */
export function postgresIndexExpression(steps: readonly string[]): string {
  return `(data #> '{${steps.join(',')}}')`;
}

/**
 * SQLite: the terms a field sorts by in the contract's order (its JSON type's rank, then its value; arrays and
 * objects tie), for `path` written into SQL or bound. An index over a plain path has these same terms as its
 * columns, so that sorts and comparisons written with them are served by it.
 */
export function sqliteSortTerms(path: string): [rank: string, value: string] {
  const type = `json_type(data, ${path})`;
  return [
    `(CASE ${type} WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 4 ELSE 0 END)`,
    `(CASE WHEN ${type} IN ('array', 'object') THEN NULL ELSE json_extract(data, ${path}) END)`,
  ];
}

/**
 * PostgreSQL: the same for the jsonb `value`: its type's rank, then booleans and numbers as jsonb, then strings
 * in "C" order. Within a rank the column of the other kind is a constant (not NULL), so a unique index over these
 * terms treats two equal strings (or numbers) as equal; a missing or null value is NULL in both, never equal.
 */
export function postgresSortTerms(value: string): [rank: string, scalar: string, text: string] {
  const type = `jsonb_typeof(${value})`;
  return [
    `(CASE ${type} WHEN 'boolean' THEN 1 WHEN 'number' THEN 2 WHEN 'string' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 4 ELSE 0 END)`,
    `(CASE WHEN ${type} IN ('boolean', 'number') THEN ${value} WHEN ${type} = 'string' THEN 'null'::jsonb END)`,
    `(CASE WHEN ${type} = 'string' THEN (${value} #>> '{}') COLLATE "C" WHEN ${type} IN ('boolean', 'number') THEN '' END)`,
  ];
}

/** The columns of an index over `fields`, per engine: each field's sort terms, then `id` unless it is unique. */
export function indexColumns(
  engine: 'sqlite' | 'postgres',
  fields: readonly IndexFieldSpec[],
  unique: boolean,
): string[] {
  const columns = fields.flatMap((field) => {
    const steps = stepsOf(field.path);
    const terms =
      engine === 'sqlite'
        ? sqliteSortTerms(sqlitePathLiteral(steps))
        : postgresSortTerms(postgresIndexExpression(steps));
    return terms.map((term) => `${term} ${field.order === 'desc' ? 'DESC' : 'ASC'}`);
  });
  // Sorts end with the id in the last key's direction: with it, a sorted page is read from the index alone.
  if (!unique) columns.push(`id ${fields.at(-1)?.order === 'desc' ? 'DESC' : 'ASC'}`);
  return columns;
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
