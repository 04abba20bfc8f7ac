// Reading with SQL and with the query builder. Run: DATAPLATFORM_BASE_URL=… DATAPLATFORM_API_KEY=… pnpm sql
import { DataPlatform } from '@dataplatform/sdk';

interface Product {
  name: string;
  price: number;
  tags: string[];
}

const client = new DataPlatform();

// Inserted once; when run again these answer 409 inside the batch's results, and the reads below still work.
await client.data.batch([
  { op: 'insert', collection: 'products', id: 'p-1', data: { name: 'pen', price: 2, tags: ['office'] } },
  { op: 'insert', collection: 'products', id: 'p-2', data: { name: 'lamp', price: 40, tags: ['home'] } },
  { op: 'insert', collection: 'products', id: 'p-3', data: { name: 'desk', price: 250, tags: ['office'] } },
]);

// One read-only statement; values travel as parameters, never inside the text.
const { data, query } = await client.data.sql<Product>(
  'SELECT * FROM products WHERE price > ? ORDER BY price DESC',
  [10],
);
console.log('over 10:', data.map((product) => product.name).join(', '));
console.log('as the server read it:', JSON.stringify(query.where));

// The builder writes the same statement, with field names checked against the document type.
const cheap = await client.data
  .query<Product>('products')
  .where('price', '<=', 40)
  .orderBy('price')
  .limit(10);
console.log('40 or less:', cheap.data.map((product) => `${product.name} ${product.price}`).join(', '));
