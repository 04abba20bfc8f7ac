import type { OpenAPIDocument, Schema } from '../openapi.js';
import { isClosedObject, refName } from '../openapi.js';

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** A name usable as a Python identifier: keywords get a trailing underscore (`import` → `import_`). */
export function pythonName(name: string): string {
  return KEYWORDS.has(name) ? `${name}_` : name;
}

function isIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name);
}

/** A Python literal of a JSON scalar. */
export function pythonLiteral(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return JSON.stringify(value);
}

/** A string as a Python docstring's text: no closing quotes, no escapes taken as such. */
export function docText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').trim();
}

/**
 * The Python annotation of a schema. `model` says how a component is named where the annotation is written
 * (quoted in the models module, where it may be defined further down; `_m.Name` in the resources).
 */
export function pythonType(schema: Schema | undefined, model: (name: string) => string): string {
  if (!schema) return 'Any';
  if (schema.$ref) return model(refName(schema.$ref));
  if (schema.const !== undefined) return `Literal[${pythonLiteral(schema.const)}]`;
  if (schema.enum) return `Literal[${schema.enum.map(pythonLiteral).join(', ')}]`;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return union(variants.map((each) => pythonType(each, model)));
  if (schema.allOf?.length === 1) return pythonType(schema.allOf[0], model);
  if (Array.isArray(schema.type)) {
    return union(schema.type.map((type) => pythonType({ ...schema, type }, model)));
  }
  switch (schema.type) {
    case 'string':
      return 'str';
    case 'integer':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'null':
      return 'None';
    case 'array':
      return `List[${pythonType(schema.items, model)}]`;
    case 'object':
      return 'Dict[str, Any]';
    default:
      return 'Any';
  }
}

function union(types: string[]): string {
  const distinct = [...new Set(types)];
  const withoutNone = distinct.filter((type) => type !== 'None');
  if (distinct.includes('Any')) return 'Any';
  const inner = withoutNone.length === 1 ? withoutNone[0]! : `Union[${withoutNone.join(', ')}]`;
  return withoutNone.length < distinct.length ? `Optional[${inner}]` : inner;
}

/** An object schema that a TypedDict can describe: named properties and no other keys. */
export function isTypedDict(schema: Schema): boolean {
  return isClosedObject(schema);
}

/** A TypedDict class (or, when a key is no identifier, its functional form) of an object schema. */
export function typedDict(name: string, schema: Schema, model: (name: string) => string): string {
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([key, property]) => {
    const type = pythonType(property, model);
    return {
      key,
      type: required.has(key) ? type : `NotRequired[${type}]`,
      description: property.description,
    };
  });
  const doc = docText(schema.description ?? `The ${name} object of the API.`);
  if (fields.every((field) => isIdentifier(field.key))) {
    const lines = [`class ${name}(TypedDict):`, `    """${doc}"""`, ''];
    for (const field of fields) {
      if (field.description) lines.push(`    #: ${field.description.replace(/\s*\n\s*/g, ' ')}`);
      lines.push(`    ${field.key}: ${field.type}`);
    }
    return lines.join('\n');
  }
  const entries = fields.map((field) => `    ${JSON.stringify(field.key)}: ${field.type},`);
  return [
    `${name} = TypedDict(`,
    `    ${JSON.stringify(name)},`,
    '    {',
    ...entries.map((e) => `    ${e}`),
    '    },',
    ')',
    `"""${doc}"""`,
  ].join('\n');
}

/** The models module: one TypedDict or alias per component schema, and one per inline JSON body. */
export function modelsModule(doc: OpenAPIDocument, inline: Map<string, Schema>): string {
  const quoted = (name: string) => JSON.stringify(name);
  const classes: string[] = [];
  const aliases: string[] = [];
  const all = [...Object.entries(doc.components.schemas), ...inline.entries()].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  for (const [name, schema] of all) {
    if (isTypedDict(schema)) classes.push(typedDict(name, schema, quoted));
    else {
      const text = `${name} = ${pythonType(schema, quoted)}`;
      const description = schema.description ? `\n"""${docText(schema.description)}"""` : '';
      aliases.push(text + description);
    }
  }
  // Not a schema: the registry of documented error codes (an APIError's `code` is one of them, or a newer server's).
  const codes = Object.keys(doc['x-error-codes'] ?? {}).sort();
  if (codes.length > 0) {
    all.push(['ErrorCode', {}]);
    aliases.push(
      `ErrorCode = Literal[${codes.map(pythonLiteral).join(', ')}]\n"""An error code the contract documents; a newer server may send others."""`,
    );
  }
  const names = all.map(([name]) => name);
  return [
    '# Generated by packages/codegen from packages/contract/openapi.json: do not edit; run `pnpm codegen`.',
    '"""The API\'s objects as TypedDicts and aliases, one per schema of the contract."""',
    '',
    'from __future__ import annotations',
    '',
    'from typing import Any, Dict, List, Optional, Union',
    '',
    'from typing_extensions import Literal, NotRequired, TypedDict',
    '',
    `__all__ = [${names.map((n) => JSON.stringify(n)).join(', ')}]`,
    '',
    ...classes.map((c) => `\n${c}\n`),
    // Aliases run at import time, so they come after every class they may name.
    ...aliases.map((a) => `\n${a}\n`),
  ].join('\n');
}
