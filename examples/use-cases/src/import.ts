// A file of documents into a collection as one import job. Run: DATAPLATFORM_BASE_URL=… DATAPLATFORM_API_KEY=… pnpm import
import { Readable } from 'node:stream';
import { DataPlatform } from '@dataplatform/sdk';

const client = new DataPlatform();

// Any byte stream works (fs.createReadStream('events.ndjson') for a file); this one has a bad third line.
const lines = ['{"kind":"view","page":"/"}', '{"kind":"click","page":"/buy"}', 'not json', '{"kind":"view"}'];
const file = Readable.from([`${lines.join('\n')}\n`].map((text) => Buffer.from(text)));

// `skip` stores the good rows and reports the bad ones with their line numbers; `abort` would stop at the first.
const job = await client.data.import('page_events', file, { format: 'ndjson', onError: 'skip' });
console.log(`${job.status}: ${job.counts.inserted} of ${job.counts.rows} rows stored`);
for (const error of job.errors) console.log(`line ${error.line}: ${error.code}`);
