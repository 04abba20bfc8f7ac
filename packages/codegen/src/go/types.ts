import { pascalCase } from '../names.js';
import type { OpenAPIDocument, Schema } from '../openapi.js';
import { isClosedObject, refName } from '../openapi.js';

/** Component names the hand-written core already uses: the generated type takes a suffix instead. */
const TAKEN = new Set([
  'Client',
  'Error',
  'Option',
  'Page',
  'Response',
  'RateLimit',
  'ServerSentEvent',
  'Collection',
]);

/** The Go name of a component schema: `Error` → `ErrorBody` (the client's own `*Error` keeps its name). */
export function goTypeName(name: string): string {
  const go = pascalCase(name);
  return TAKEN.has(go) ? `${go}Body` : go;
}

/** An exported Go identifier for a JSON key: `_createdAt` → `CreatedAt`, `2fa` → `X2fa`. */
export function goFieldName(key: string): string {
  const name = pascalCase(key);
  if (name === '') return 'Field';
  return /^[0-9]/.test(name) ? `X${name}` : name;
}

/** A Go string literal (backquoted text would break on a backquote). */
export function goString(text: string): string {
  return JSON.stringify(text);
}

/** A one-line Go comment's text. */
export function commentText(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * Turns schemas into Go types. Component schemas and inline objects become named declarations (`declarations`);
 * an inline object takes its parent's name and its field's (`Job` + `progress` → `JobProgress`).
 */
export class GoTypes {
  readonly declarations = new Map<string, string>();
  /** Go names of component schemas that are structs: results of those are returned by pointer. */
  readonly structs = new Set<string>();

  constructor(private readonly doc: OpenAPIDocument) {
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      if (isClosedObject(schema)) this.structs.add(goTypeName(name));
    }
  }

  /** Declares every component schema. */
  declareComponents(): void {
    const names = Object.keys(this.doc.components.schemas).sort();
    for (const name of names) this.declare(goTypeName(name), this.doc.components.schemas[name]!);
  }

  /** Declares `name` for `schema`: a struct, or a defined type of what the schema describes. */
  declare(name: string, schema: Schema): void {
    if (this.declarations.has(name)) return;
    this.declarations.set(name, ''); // reserved: a schema may name itself
    const doc = `// ${name}: ${commentText(schema.description ?? `the ${name} object of the API`)}`;
    if (isClosedObject(schema)) {
      this.structs.add(name);
      this.declarations.set(name, `${doc}\ntype ${name} struct {\n${this.fields(name, schema)}}`);
    } else {
      this.declarations.set(name, `${doc}\ntype ${name} = ${this.type(schema, name)}`);
    }
  }

  private fields(parent: string, schema: Schema): string {
    const required = new Set(schema.required ?? []);
    const used = new Set<string>();
    let out = '';
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      let field = goFieldName(key);
      while (used.has(field)) field = `${field}_`;
      used.add(field);
      const base = this.type(property, parent + goFieldName(key));
      const optional = !required.has(key);
      const nullable = this.isNullable(property);
      // A pointer tells "not sent" (or null) from the zero value; slices, maps and `any` already can.
      const pointer = (optional || nullable) && !/^(\[\]|map\[|any$|json\.RawMessage$)/.test(base);
      const type = pointer ? `*${base}` : base;
      const tag = `json:${goString(`${key}${optional ? ',omitempty' : ''}`)}`;
      if (property.description) out += `\t// ${commentText(property.description)}\n`;
      out += `\t${field} ${type} \`${tag}\`\n`;
    }
    return out;
  }

  private isNullable(schema: Schema): boolean {
    if (Array.isArray(schema.type)) return schema.type.includes('null');
    const variants = schema.anyOf ?? schema.oneOf;
    return variants?.some((v) => v.type === 'null') ?? false;
  }

  /** The Go type of a schema; `context` names an inline object declared from it. */
  type(schema: Schema | undefined, context: string): string {
    if (!schema) return 'any';
    if (schema.$ref) return goTypeName(refName(schema.$ref));
    if (schema.const !== undefined) return scalar(typeof schema.const);
    if (schema.enum) {
      const kinds = new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)));
      kinds.delete('null');
      return kinds.size === 1 ? scalar([...kinds][0]!) : 'any';
    }
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) {
      // An inline object among variants is not declared: the union is any value (or any object) instead.
      const types = [
        ...new Set(
          variants
            .filter((v) => v.type !== 'null')
            .map((v) => (!v.$ref && isClosedObject(v) ? 'map[string]any' : this.type(v, context))),
        ),
      ];
      return types.length === 1 ? types[0]! : 'any';
    }
    if (schema.allOf?.length === 1) return this.type(schema.allOf[0], context);
    if (Array.isArray(schema.type)) {
      const types = schema.type.filter((t) => t !== 'null');
      return types.length === 1 ? this.type({ ...schema, type: types[0] }, context) : 'any';
    }
    switch (schema.type) {
      case 'string':
        return 'string';
      case 'integer':
        return 'int64';
      case 'number':
        return 'float64';
      case 'boolean':
        return 'bool';
      case 'array':
        return `[]${this.type(schema.items, `${context}Item`)}`;
      case 'object':
        if (isClosedObject(schema)) {
          this.declare(context, schema);
          return context;
        }
        if (
          typeof schema.additionalProperties === 'object' &&
          Object.keys(schema.additionalProperties).length
        )
          return `map[string]${this.type(schema.additionalProperties, `${context}Value`)}`;
        return 'map[string]any';
      default:
        return 'any';
    }
  }
}

function scalar(kind: string): string {
  switch (kind) {
    case 'string':
      return 'string';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    default:
      return 'any';
  }
}
