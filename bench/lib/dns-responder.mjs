/**
 * A DNS server on 127.0.0.1 (UDP) for the webhook-creation benchmark: every name ending in `.bench.test` is
 * 127.0.0.1 with a TTL of 0 (so each lookup asks again), answered at once or, for names `slow(name)` picks,
 * after `delayMs`. Others are NXDOMAIN, and AAAA questions get no records. Only what a resolver's A/AAAA
 * question needs is decoded.
 */
import { createSocket } from 'node:dgram';

/** Where the question's name ends (its 0 label), so that the question can be echoed as it came. */
function questionEnd(query) {
  let at = 12;
  while (query[at] !== 0) at += query[at] + 1;
  return at + 5; // the 0 label, QTYPE and QCLASS
}

function nameOf(query) {
  const labels = [];
  for (let at = 12; query[at] !== 0; at += query[at] + 1)
    labels.push(query.subarray(at + 1, at + 1 + query[at]).toString('ascii'));
  return labels.join('.').toLowerCase();
}

function reply(query) {
  const end = questionEnd(query);
  const type = query.readUInt16BE(end - 4);
  const known = nameOf(query).endsWith('.bench.test');
  const answer = known && type === 1;
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2); // a response, recursion desired and available; NXDOMAIN
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answer ? 1 : 0, 6);
  const record = Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4, 127, 0, 0, 1]);
  return Buffer.concat([header, query.subarray(12, end), ...(answer ? [record] : [])]);
}

/** Starts the server; `slow(name)` says which names wait `delayMs` before their answer. */
export async function startDnsResponder({ slow = () => false, delayMs = 2000 } = {}) {
  const socket = createSocket('udp4');
  let waiting = 0;
  socket.on('message', (query, from) => {
    const answer = () => socket.send(reply(query), from.port, from.address);
    if (!slow(nameOf(query))) return answer();
    waiting++;
    setTimeout(() => {
      waiting--;
      answer();
    }, delayMs);
  });
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    /** Questions of slow names not answered yet (an A and an AAAA per lookup). */
    waiting: () => waiting,
    close: () => new Promise((resolve) => socket.close(resolve)),
  };
}
