/** What is known of the values seen at one place of the sampled documents. */
interface Shape {
  types: Set<string>;
  /** Fields of the objects seen here, and in how many of those objects each was present. */
  fields: Map<string, { shape: Shape; seen: number }>;
  objects: number;
  /** The elements of the arrays seen here. */
  items: Shape | null;
}

const emptyShape = (): Shape => ({ types: new Set(), fields: new Map(), objects: 0, items: null });

/** The most levels of nesting described; deeper values are left as `{}` (anything). */
const MAX_DEPTH = 16;

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function observe(shape: Shape, value: unknown, depth: number): void {
  const type = jsonType(value);
  shape.types.add(type);
  if (depth >= MAX_DEPTH) return;
  if (type === 'object') {
    shape.objects++;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      let field = shape.fields.get(key);
      if (!field) {
        field = { shape: emptyShape(), seen: 0 };
        shape.fields.set(key, field);
      }
      field.seen++;
      observe(field.shape, child, depth + 1);
    }
  } else if (type === 'array') {
    shape.items ??= emptyShape();
    for (const element of value as unknown[]) observe(shape.items, element, depth + 1);
  }
}

function describe(shape: Shape): Record<string, unknown> {
  const types = [...shape.types];
  // An integer is a number too: a field seen with both is a number.
  const merged = types.includes('number') ? types.filter((type) => type !== 'integer') : types;
  if (merged.length === 0) return {};
  const schema: Record<string, unknown> = { type: merged.length === 1 ? merged[0] : merged.sort() };
  if (shape.types.has('object') && shape.fields.size > 0) {
    schema.properties = Object.fromEntries(
      [...shape.fields].map(([key, field]) => [key, describe(field.shape)]),
    );
    const required = [...shape.fields]
      .filter(([, field]) => field.seen === shape.objects)
      .map(([key]) => key);
    if (required.length > 0) schema.required = required;
  }
  if (shape.types.has('array') && shape.items && shape.items.types.size > 0)
    schema.items = describe(shape.items);
  return schema;
}

/**
 * A JSON Schema (draft 2020-12) that every sampled document matches: the JSON types seen at each field, nested
 * objects and array elements described alike, and `required` for the fields every document has. It proposes a
 * validator to start from; it does not guess formats, ranges or enumerations.
 */
export function inferSchema(documents: readonly Record<string, unknown>[]): Record<string, unknown> {
  const root = emptyShape();
  for (const document of documents) observe(root, document, 0);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...(documents.length === 0 ? { type: 'object' } : describe(root)),
  };
}
