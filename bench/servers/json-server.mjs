/** json-server 0.17 set up as its CLI does with `--quiet db.json`, over a db.json of the orders; prints `{ url }`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import jsonServer from 'json-server';

const [ordersFile, dataDir] = process.argv.slice(2);
const orders = JSON.parse(readFileSync(ordersFile, 'utf8'));
const dbFile = join(dataDir, 'db.json');
// json-server's id field is `id`; the values are the same ids the other targets use.
writeFileSync(
  dbFile,
  JSON.stringify({ orders: orders.map(({ _id, ...fields }) => ({ id: _id, ...fields })) }),
);

const app = jsonServer.create();
app.use(jsonServer.defaults({ logger: false, bodyParser: true }));
app.use(jsonServer.router(dbFile));
const server = app.listen(0, '127.0.0.1', () => {
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` }));
});
