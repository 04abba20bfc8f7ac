/** The ceiling: plain node:http answering from a Map, no auth, no validation, no storage; prints `{ url }`. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [ordersFile] = process.argv.slice(2);
const orders = JSON.parse(readFileSync(ordersFile, 'utf8'));
const now = new Date().toISOString();
// Documents are kept as the JSON text the reference server would answer, so a GET only looks up and writes.
const documents = new Map(
  orders.map((doc) => [doc._id, JSON.stringify({ ...doc, _createdAt: now, _updatedAt: now })]),
);
const PREFIX = '/orders/';
let counter = 0;

function send(res, status, body) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url.startsWith(PREFIX)) {
    const doc = documents.get(decodeURIComponent(req.url.slice(PREFIX.length)));
    return doc === undefined
      ? send(res, 404, '{"error":"Not found","code":"not_found"}')
      : send(res, 200, doc);
  }
  if (req.method === 'POST' && req.url === '/orders') {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const fields = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const at = new Date().toISOString();
      const body = JSON.stringify({ _id: `new_${++counter}`, ...fields, _createdAt: at, _updatedAt: at });
      documents.set(`new_${counter}`, body);
      send(res, 201, body);
    });
    return;
  }
  send(res, 404, '{"error":"Not found","code":"not_found"}');
});

server.listen(0, '127.0.0.1', () => {
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` }));
});
