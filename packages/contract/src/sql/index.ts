/**
 * The SQL helper's reference implementation: the parser that translates a statement into a collection query,
 * and the in-memory evaluator that defines what the query answers. A separate entry point
 * (`@dataplatform/contract/sql`), so the main entry and the clients never load the SQL parser.
 * @packageDocumentation
 */

export { type LikeToken, likeMatches, likeTokens } from '../like.js';
export { evaluate, matches } from './evaluate.js';
export { formatSql, quoteIdentifier } from './format.js';
export { parseSql } from './parse.js';
export { MAX_FIELDS } from './select.js';
export { parseWhere } from './where.js';
