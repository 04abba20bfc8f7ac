/**
 * What the webhook benchmark verifies, and how each target verifies it. A 1 KB delivery as a Node.js receiver holds
 * it: the body a Buffer read from the request stream, the headers Node's lower-case `req.headers`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { sign, verify, verifyAsync } from '@dataplatform/webhooks/node';
import { Webhook } from 'standardwebhooks';

export const SECRET = `whsec_${Buffer.alloc(32, 'dataplatform bench').toString('base64')}`;
export const BODY_BYTES = 1024;

/** An event body of exactly BODY_BYTES bytes of JSON. */
function eventBody() {
  const event = {
    id: 'evt_01KDX3Q5WJ4M2V8N7R6T9B0C1D',
    type: 'document.updated',
    createdAt: '2026-01-01T00:00:00.000Z',
    collection: 'orders',
    documentId: '01KDX3Q5WHZ8P3YB6E0G2T4M5N',
    data: { customer: 'ada', total: 42, currency: 'EUR', status: 'shipped', notes: '' },
  };
  event.data.notes = 'x'.repeat(BODY_BYTES - Buffer.byteLength(JSON.stringify(event)));
  return Buffer.from(JSON.stringify(event));
}

/** The request headers of a delivery; `only` keeps one scheme's headers. */
function requestHeaders(body, only) {
  const signed = sign(body, SECRET, { event: 'document.updated' });
  const kept = Object.entries(signed).filter(([name]) =>
    only === 'x-webhook' ? name.startsWith('x-') : only === 'standard' ? !name.startsWith('x-') : true,
  );
  return {
    host: 'receiver.example',
    'user-agent': 'dataplatform-webhooks/1.0',
    'content-type': 'application/json',
    'content-length': String(body.length),
    'accept-encoding': 'gzip, deflate',
    connection: 'keep-alive',
    ...Object.fromEntries(kept),
  };
}

const body = eventBody();
const full = requestHeaders(body, 'all');
const xOnly = requestHeaders(body, 'x-webhook');
const standardOnly = requestHeaders(body, 'standard');
const standardwebhooks = new Webhook(SECRET); // made once, as a receiver would

/** The baseline: the least code that checks X-Webhook-Signature with node:crypto. */
function rawCheck(headers, payload) {
  const received = Buffer.from(headers['x-webhook-signature'], 'hex');
  const expected = createHmac('sha256', SECRET).update(payload).digest();
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/** The same for both schemes, as our verify does for a full delivery. */
const STANDARD_KEY = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
function rawCheckBoth(headers, payload) {
  const signed = createHmac('sha256', STANDARD_KEY)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.`)
    .update(payload)
    .digest();
  const received = Buffer.from(headers['webhook-signature'].slice('v1,'.length), 'base64');
  return rawCheck(headers, payload) && received.length === signed.length && timingSafeEqual(received, signed);
}

/**
 * Each target: `run()` verifies the delivery once (true when accepted, or a promise of it); `tampered()` must
 * refuse a changed body, which the benchmark checks before it measures.
 */
export const targets = {
  'raw-x-webhook': {
    run: () => rawCheck(xOnly, body),
    tampered: (changed) => rawCheck(xOnly, changed),
  },
  'verify-x-webhook': {
    run: () => {
      verify(body, xOnly, SECRET);
      return true;
    },
    tampered: (changed) => {
      verify(changed, xOnly, SECRET);
      return true;
    },
  },
  'raw-both': {
    run: () => rawCheckBoth(full, body),
    tampered: (changed) => rawCheckBoth(full, changed),
  },
  'verify-both': {
    run: () => {
      verify(body, full, SECRET);
      return true;
    },
    tampered: (changed) => {
      verify(changed, full, SECRET);
      return true;
    },
  },
  'verify-standard': {
    run: () => {
      verify(body, standardOnly, SECRET);
      return true;
    },
    tampered: (changed) => {
      verify(changed, standardOnly, SECRET);
      return true;
    },
  },
  standardwebhooks: {
    run: () => {
      standardwebhooks.verify(body, standardOnly);
      return true;
    },
    tampered: (changed) => {
      standardwebhooks.verify(changed, standardOnly);
      return true;
    },
  },
  'verify-async-x-webhook': {
    async: true,
    run: () => verifyAsync(body, xOnly, SECRET).then(() => true),
    tampered: (changed) => verifyAsync(changed, xOnly, SECRET).then(() => true),
  },
};

/** A copy of the body with one byte changed. */
export function tamperedBody() {
  const changed = Buffer.from(body);
  changed[changed.length - 3] ^= 1;
  return changed;
}

export const bodyLength = body.length;
