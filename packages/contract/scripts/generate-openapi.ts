// Writes openapi.json from the contract; with --check, fails when the committed file is stale.
import { fileURLToPath } from 'node:url';
import { writeGenerated } from '../../../scripts/generated-file.js';
import { buildOpenApiDocument } from '../src/openapi/build.js';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
writeGenerated(
  target,
  `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`,
  'packages/contract/openapi.json',
);
