/** The parts of an OpenAPI 3.1 document the generators read. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  format?: string;
  description?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface MediaType {
  schema?: Schema;
}

export interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

export interface OpenAPIDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, Schema> };
  /** The error registry: code → status, message and description. */
  'x-error-codes'?: Record<string, { status: number; description?: string }>;
}

/** The name a `#/components/schemas/<name>` reference points at. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** An object schema with named properties and no other keys: a TypedDict in Python, a struct in Go. */
export function isClosedObject(schema: Schema): boolean {
  return (
    schema.type === 'object' &&
    schema.properties !== undefined &&
    Object.keys(schema.properties).length > 0 &&
    (schema.additionalProperties === undefined || schema.additionalProperties === false)
  );
}
