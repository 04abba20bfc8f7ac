// Walking every page of a collection. Run: DATAPLATFORM_BASE_URL=… DATAPLATFORM_API_KEY=… pnpm pagination
import { DataPlatform } from '@dataplatform/sdk';

interface Reading {
  sensor: string;
  value: number;
}

const client = new DataPlatform();
const readings = client.data.collection<Reading>('readings');

await client.data.batch(
  Array.from({ length: 25 }, (_, i) => ({
    op: 'insert' as const,
    collection: 'readings',
    id: `r-${String(i).padStart(2, '0')}`,
    data: { sensor: 's-1', value: i },
  })),
);

// `for await` fetches the next page only when the loop reaches it.
let sum = 0;
for await (const reading of readings.list({ limit: 10, sort: '_id' })) sum += reading.value;
console.log('sum of every reading:', sum);

// Or page by page, with the page's own place in the list.
let page = await readings.list({ limit: 10, sort: '_id' });
const sizes = [page.data.length];
while (page.hasNextPage()) {
  page = await page.getNextPage();
  sizes.push(page.data.length);
}
console.log(`pages of ${sizes.join(', ')} out of ${page.total}`);
