import type { OpenAPIDocument, Schema } from '../openapi.js';
import { operationsOf, type Resource, resourceTree } from '../operations.js';
import { paramsClass, paramsFile, resourceClass, resourceFile } from './resources.js';
import { errorCodes, HEADER, inlineBodyName, isRecord, javaName, record } from './types.js';

/**
 * The generated files of the Java client, by path under `packages/sdk-java/src/main/java/dev/dataplatform/`:
 * `models/` (a record per object schema, and `ErrorCode`), `resources/` (a class per resource, a params class per
 * operation with optional query parameters) and `DataPlatformResources.java`, the base of `DataPlatform`.
 */
export function javaClient(doc: OpenAPIDocument): Map<string, string> {
  const operations = operationsOf(doc);
  const files = new Map<string, string>();
  const models: [string, Schema][] = Object.entries(doc.components.schemas).filter(([, s]) => isRecord(s));
  for (const op of operations) {
    if (op.body.kind === 'json' && !op.body.schema.$ref && isRecord(op.body.schema)) {
      models.push([inlineBodyName(op.id), op.body.schema]);
    }
    if (op.queryParams.some((q) => !q.required))
      files.set(`resources/${paramsClass(op)}.java`, paramsFile(doc, op));
  }
  for (const [name, schema] of models) files.set(`models/${name}.java`, record(doc, name, schema));
  files.set('models/ErrorCode.java', errorCodes(doc));

  const tree = resourceTree(operations);
  // A client method lives on a resource: an operationId is `<resource>.<method>` at least.
  if (tree.operations.length > 0) {
    throw new Error(`operationIds without a resource: ${tree.operations.map((op) => op.id).join(', ')}`);
  }
  const walk = (resource: Resource): void => {
    files.set(`resources/${resourceClass(resource.path)}.java`, resourceFile(doc, resource));
    for (const child of resource.children.values()) walk(child);
  };
  const top = [...tree.children.values()];
  for (const resource of top) walk(resource);

  const attached = top.map((r) => ({ accessor: javaName(r.path[0]!), cls: resourceClass(r.path) }));
  files.set(
    'DataPlatformResources.java',
    [
      HEADER,
      'package dev.dataplatform;',
      '',
      ...attached.map((a) => `import dev.dataplatform.resources.${a.cls};`),
      '',
      '/** The top-level resources of the client, one per group of the contract; {@code DataPlatform} extends it. */',
      'public abstract class DataPlatformResources {',
      ...attached.map((a) => `  private final ${a.cls} ${a.accessor};`),
      '',
      '  DataPlatformResources(ApiClient client) {',
      ...attached.map((a) => `    this.${a.accessor} = new ${a.cls}(client);`),
      '  }',
      ...attached.flatMap((a) => [
        '',
        `  /** {@code client.${a.accessor}()}: the ${a.accessor} operations of the contract. */`,
        `  public ${a.cls} ${a.accessor}() {`,
        `    return ${a.accessor};`,
        '  }',
      ]),
      '}',
      '',
    ].join('\n'),
  );
  return files;
}
