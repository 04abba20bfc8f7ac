import type { JsonObject } from '@dataplatform/contract';

/** A failure of a document against a schema, as the server reports it. */
export interface ShapeError {
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

/** The JSON Schema type of a value (`integer` for whole numbers). */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);

/**
 * Why a validator's schema is not one the mocks can apply, or null: the keywords `checkShape` reads must have
 * their JSON Schema form (the server compiles the whole schema and refuses more).
 */
export function schemaProblem(schema: unknown, path = ''): string | null {
  if (typeof schema === 'boolean') return null;
  if (!schema || typeof schema !== 'object' || Array.isArray(schema))
    return `${path || '/'} must be object,boolean`;
  const { type, required, properties, items } = schema as Schema;
  if (type !== undefined && ![type].flat().every((t) => typeof t === 'string' && JSON_TYPES.has(t)))
    return `${path}/type must be a JSON type`;
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === 'string')))
    return `${path}/required must be array of strings`;
  if (properties !== undefined) {
    if (!properties || typeof properties !== 'object' || Array.isArray(properties))
      return `${path}/properties must be object`;
    for (const [name, sub] of Object.entries(properties)) {
      const problem = schemaProblem(sub, `${path}/properties/${name}`);
      if (problem) return problem;
    }
  }
  return items === undefined ? null : schemaProblem(items, `${path}/items`);
}

/**
 * A tiny structural check, enough for the mocks' validator check: `type`, `enum`, `required`, `properties` and
 * `items`, recursively. Every other keyword is ignored; the server compiles the full JSON Schema with Ajv.
 */
export function checkShape(value: unknown, schema: Schema, path = ''): ShapeError[] {
  const errors: ShapeError[] = [];
  const types = schema.type === undefined ? [] : [schema.type].flat().map(String);
  const actual = typeOf(value);
  if (types.length > 0 && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
    return [{ path, message: `must be ${types.join(',')}` }];
  }
  if (
    Array.isArray(schema.enum) &&
    !schema.enum.some((item) => JSON.stringify(item) === JSON.stringify(value))
  )
    errors.push({ path, message: 'must be equal to one of the allowed values' });
  if (actual === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of Array.isArray(schema.required) ? schema.required.map(String) : [])
      if (!(name in object))
        errors.push({ path: pointer(path, name), message: `must have required property '${name}'` });
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [name, sub] of Object.entries(properties))
      if (name in object && sub && typeof sub === 'object')
        errors.push(...checkShape(object[name], sub, pointer(path, name)));
  }
  if (actual === 'array' && schema.items && typeof schema.items === 'object')
    (value as unknown[]).forEach((item, index) => {
      errors.push(...checkShape(item, schema.items as Schema, pointer(path, index)));
    });
  return errors;
}

/**
 * A schema every given document matches: an object whose properties have the types seen (a whole number seen
 * beside a fraction is a `number`), with `required` naming the fields every document has.
 */
export function inferShape(documents: readonly JsonObject[]): Schema {
  if (documents.length === 0) return { type: 'object' };
  const seen = new Map<string, Set<string>>();
  const counts = new Map<string, number>();
  for (const document of documents)
    for (const [name, value] of Object.entries(document)) {
      const types = seen.get(name) ?? new Set<string>();
      seen.set(name, types);
      types.add(typeOf(value));
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  const properties: Record<string, Schema> = {};
  for (const [name, types] of seen) {
    if (types.has('number')) types.delete('integer');
    const list = [...types].sort();
    properties[name] = { type: list.length === 1 ? list[0] : list };
  }
  const required = [...counts].filter(([, count]) => count === documents.length).map(([name]) => name);
  return { type: 'object', properties, required };
}
