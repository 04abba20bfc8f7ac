/** Fields every document has that a table leaves out: they are long and rarely what the reader looks for. */
const HIDDEN = new Set(['_createdAt', '_updatedAt']);

/** Table columns for documents: `_id` first, then every other field in the order the documents first show it. */
export function documentRows(docs: readonly Record<string, unknown>[]): {
  header: string[];
  rows: unknown[][];
} {
  const fields = new Set<string>();
  for (const doc of docs) for (const field of Object.keys(doc)) if (!HIDDEN.has(field)) fields.add(field);
  fields.delete('_id');
  const hasId = docs.some((doc) => '_id' in doc);
  const header = hasId ? ['_id', ...fields] : [...fields];
  return { header, rows: docs.map((doc) => header.map((field) => doc[field])) };
}
