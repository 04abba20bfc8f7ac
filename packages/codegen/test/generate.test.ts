import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goClient } from '../src/go/index.js';
import { javaClient } from '../src/java/index.js';
import type { OpenAPIDocument } from '../src/openapi.js';
import { operationsOf } from '../src/operations.js';
import { pythonClient } from '../src/python/index.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const load = (): OpenAPIDocument =>
  JSON.parse(readFileSync(join(ROOT, 'packages/contract/openapi.json'), 'utf8')) as OpenAPIDocument;

/** The document with one route more, as a contract change adds it: `POST /api/clusters/{clusterId}/pause`. */
function withPauseRoute(): OpenAPIDocument {
  const doc = load();
  doc.paths['/api/clusters/{clusterId}/pause'] = {
    post: {
      operationId: 'clusters.pause',
      summary: 'Pause a cluster',
      parameters: [{ name: 'clusterId', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } } },
      },
    },
  };
  return doc;
}

/** Every generated file equals the committed one under `dir`. */
function expectCommitted(files: Map<string, string>, dir: string): void {
  for (const [name, text] of files) {
    const committed = readFileSync(join(ROOT, dir, name), 'utf8');
    expect(committed, `${name} is stale: run pnpm codegen`).toBe(text);
  }
}

describe('the operations read from openapi.json', () => {
  const byId = new Map(operationsOf(load()).map((op) => [op.id, op]));

  it('finds every operation of the document', () => {
    const doc = load();
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect([...byId.keys()].sort()).toEqual(ids.sort());
  });

  it('tells lists, event streams, uploads and redirects apart', () => {
    expect(byId.get('data.list')?.result.kind).toBe('page');
    expect(byId.get('keys.usage')?.result.kind).toBe('page');
    expect(byId.get('keys.list')?.result.kind).toBe('json');
    expect(byId.get('webhooks.stream')?.result.kind).toBe('events');
    expect(byId.get('auth.google')?.result.kind).toBe('redirect');
    expect(byId.get('data.import')?.body.kind).toBe('raw');
    expect(byId.get('data.create')?.body).toMatchObject({ kind: 'json', required: true });
  });

  it('names resources and methods from the operationId', () => {
    expect(byId.get('robots.keys.create')).toMatchObject({ resource: ['robots', 'keys'], name: 'create' });
  });
});

describe('the Python client generated from it', () => {
  it('is what is committed', () => {
    expectCommitted(pythonClient(load()), 'packages/sdk-python/src/dataplatform/_generated');
  });

  it('gets a method and a resource for a route added to the contract', () => {
    const files = pythonClient(withPauseRoute());
    expect(files.get('resources.py')).toContain('class ClustersResource(SyncResource):');
    expect(files.get('resources.py')).toContain(
      '    async def pause(self, cluster_id: str, *, options: Optional[RequestOptions] = None) -> _m.Job:',
    );
    expect(files.get('root.py')).toContain('        self.clusters = ClustersResource(client)');
  });
});

describe('the Go client generated from it', () => {
  it('is what is committed', () => {
    expectCommitted(goClient(load()), 'packages/sdk-go');
  });

  it('reaches every operation as a method of a resource field', () => {
    const resources = goClient(load()).get('resources_gen.go')!;
    for (const op of operationsOf(load())) {
      const type = `${op.resource.map((part) => part[0]!.toUpperCase() + part.slice(1)).join('')}Resource`;
      const method = op.name[0]!.toUpperCase() + op.name.slice(1);
      expect(resources, op.id).toMatch(
        new RegExp(`^func \\(r \\*${type}\\) ${method}\\(ctx context\\.Context`, 'm'),
      );
    }
  });

  it('gets a method, a resource and a field for a route added to the contract', () => {
    const resources = goClient(withPauseRoute()).get('resources_gen.go')!;
    expect(resources).toContain(
      'func (r *ClustersResource) Pause(ctx context.Context, clusterId string, opts ...Option) (*Job, error) {',
    );
    expect(resources).toContain('\tr.Clusters = newClustersResource(c)');
  });

  it('types a list as pages walked with range, and renames a schema whose name the core uses', () => {
    const files = goClient(load());
    expect(files.get('resources_gen.go')).toContain(
      'func (r *DataResource) List(ctx context.Context, collection string, params *DataListParams, opts ...Option) iter.Seq2[Document, error] {',
    );
    expect(files.get('models_gen.go')).toMatch(/^type ErrorBody struct \{$/m);
  });
});

describe('the Java client generated from it', () => {
  it('is what is committed', () => {
    expectCommitted(javaClient(load()), 'packages/sdk-java/src/main/java/dev/dataplatform');
  });

  it('has a method, blocking and async, for every operation', () => {
    const files = javaClient(load());
    for (const op of operationsOf(load())) {
      const resource = files.get(
        `resources/${op.resource.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('')}Resource.java`,
      );
      const name = op.name === 'import' ? 'import_' : op.name;
      expect(resource, op.id).toContain(` ${name}(`);
      if (op.result.kind !== 'events') expect(resource, op.id).toContain(` ${name.replace(/_$/, '')}Async(`);
    }
  });

  it('gets a method, a resource and a record for a route added to the contract', () => {
    const doc = load();
    doc.paths['/api/clusters/{clusterId}/pause'] = {
      post: {
        operationId: 'clusters.pause',
        summary: 'Pause a cluster',
        parameters: [{ name: 'clusterId', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/PauseRequest' } } },
        },
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } } },
        },
      },
    };
    doc.components.schemas.PauseRequest = {
      type: 'object',
      properties: { until: { type: 'string' }, 'drain-first': { type: 'boolean' } },
      required: ['until'],
    };
    const files = javaClient(doc);
    const clusters = files.get('resources/ClustersResource.java');
    expect(clusters).toContain(
      'public Job pause(String clusterId, PauseRequest body, RequestOptions options) {',
    );
    expect(clusters).toContain(
      'public CompletableFuture<Job> pauseAsync(String clusterId, PauseRequest body) {',
    );
    expect(files.get('DataPlatformResources.java')).toContain('  public ClustersResource clusters() {');
    expect(files.get('models/PauseRequest.java')).toContain(
      '    @JsonProperty("until") String until,\n    @JsonProperty("drain-first") Boolean drainFirst) {',
    );
    expect(files.get('models/PauseRequest.java')).toContain(
      '  public PauseRequest(String until) {\n    this(until, null);\n  }',
    );
  });
});
