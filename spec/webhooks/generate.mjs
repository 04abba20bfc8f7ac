/**
 * Writes vectors.json, the test vectors every dataplatform webhook verifier reads (format: README.md here).
 * Deterministic: fixed secrets, ids, bodies and times, so running it again changes nothing unless this file
 * changed. It signs with node:crypto directly rather than with @dataplatform/webhooks, so that the vectors
 * check that package instead of repeating it; its headers are the ones that package's `sign` makes (its tests
 * compare them), several hex signatures joined by a comma alone.
 *
 *   node spec/webhooks/generate.mjs           rewrite vectors.json
 *   node spec/webhooks/generate.mjs --check   exit 1 when vectors.json differs from what this file makes
 */
import { createHash, createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FILE = fileURLToPath(new URL('./vectors.json', import.meta.url));
const TOLERANCE = 300;
const SENT_AT = 1767225600; // 2026-01-01T00:00:00Z

/** A `whsec_` secret as the server makes them: base64 of 32 bytes, here derived from a label instead of random. */
const generatedSecret = (label) => `whsec_${createHash('sha256').update(label).digest('base64')}`;
const SECRET = generatedSecret('dataplatform webhook vectors: current secret');
const OLD_SECRET = generatedSecret('dataplatform webhook vectors: previous secret');
const OTHER_SECRET = generatedSecret('dataplatform webhook vectors: some other subscription');
const CHOSEN_SECRET = 'correct-horse-battery-staple!'; // chosen by a user: not base64
const UNPREFIXED_SECRET = createHash('sha256')
  .update('dataplatform webhook vectors: unprefixed')
  .digest('base64');

const EVENT_ID = 'evt_01KDX3Q5WJ4M2V8N7R6T9B0C1D';
const event = (fields) =>
  JSON.stringify({
    id: EVENT_ID,
    type: 'document.created',
    createdAt: '2026-01-01T00:00:00.000Z',
    collection: 'orders',
    documentId: '01KDX3Q5WHZ8P3YB6E0G2T4M5N',
    data: { customer: 'ada', total: 42, ...fields },
  });
const BODY = event({});
const UNICODE_BODY = event({ customer: 'Zoë Ångström 李雷 👩🏽‍💻', note: 'e\u0301 \u2028 "quoted" \\ ✓' });

/** X-Webhook-Signature of one secret: hex HMAC-SHA256 of the body, keyed with the secret's UTF-8 bytes. */
const hexSignature = (secret, body) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');

/** One `v1,…` entry: base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the base64-decoded secret. */
function standardSignature(secret, id, timestamp, body) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * Every header of a delivery, as the server sends it, signed with each secret (newest first): several hex
 * signatures are joined by a comma without a space (docs/webhooks.md), several Standard Webhooks entries by a space.
 */
function deliveryHeaders(body, secrets, { timestamp = SENT_AT, id = EVENT_ID } = {}) {
  return {
    'X-Webhook-Id': id,
    'X-Webhook-Event': 'document.created',
    'X-Webhook-Timestamp': String(timestamp),
    'X-Webhook-Signature': secrets.map((secret) => hexSignature(secret, body)).join(','),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => standardSignature(secret, id, timestamp, body)).join(' '),
  };
}

const pick = (headers, names) => Object.fromEntries(names.map((name) => [name, headers[name]]));
const without = (headers, names) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
const X_ONLY = ['X-Webhook-Id', 'X-Webhook-Event', 'X-Webhook-Timestamp', 'X-Webhook-Signature'];
const STANDARD_ONLY = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

const headers = deliveryHeaders(BODY, [SECRET]);
const rotated = deliveryHeaders(BODY, [SECRET, OLD_SECRET]);
const valid = { valid: true };
const invalid = (code) => ({ valid: false, code });

/** [id, comment, fields]: fields override the defaults of `vector` below. */
const cases = [
  ['valid-both-schemes', 'A delivery as the server sends it: both signature schemes, checked and valid.', {}],
  [
    'valid-x-webhook-only',
    'Only the X-Webhook-* headers, e.g. behind a proxy that drops the others: X-Webhook-Signature alone decides.',
    { headers: pick(headers, X_ONLY) },
  ],
  [
    'valid-standard-webhooks-only',
    'Only the Standard Webhooks headers, as any Standard Webhooks sender signs: they alone decide.',
    { headers: pick(headers, STANDARD_ONLY) },
  ],
  [
    'valid-header-names-in-any-case',
    'Header names are case-insensitive.',
    {
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, value], i) => [
          i % 2 ? name.toUpperCase() : name.toLowerCase(),
          value,
        ]),
      ),
    },
  ],
  [
    'valid-unicode-body',
    'Signatures cover the UTF-8 bytes of the body.',
    { body: UNICODE_BODY, headers: deliveryHeaders(UNICODE_BODY, [SECRET]) },
  ],
  [
    'valid-empty-body',
    'An empty body has signatures too.',
    { body: '', headers: deliveryHeaders('', [SECRET]) },
  ],
  [
    'valid-uppercase-hex',
    'Hex digits of X-Webhook-Signature may be in upper case.',
    { headers: { ...headers, 'X-Webhook-Signature': headers['X-Webhook-Signature'].toUpperCase() } },
  ],
  ['valid-at-tolerance-past', 'Exactly toleranceSeconds old: still accepted.', { now: SENT_AT + TOLERANCE }],
  [
    'valid-at-tolerance-future',
    'Exactly toleranceSeconds ahead: still accepted.',
    { now: SENT_AT - TOLERANCE },
  ],
  [
    'valid-custom-tolerance',
    'An hour old, accepted with a tolerance of an hour.',
    { now: SENT_AT + 3600, toleranceSeconds: 3600 },
  ],
  [
    'rotation-receiver-has-new-secret',
    'During a rotation a delivery is signed with the new and the old secret; a receiver holding only the new one accepts it.',
    { headers: rotated },
  ],
  [
    'rotation-receiver-has-old-secret',
    'The same delivery; a receiver not yet updated, holding only the old secret, accepts it too.',
    { secrets: [OLD_SECRET], headers: rotated },
  ],
  [
    'rotation-receiver-has-both-secrets',
    'A receiver may hold several secrets: a delivery signed with any of them is accepted.',
    { secrets: [OLD_SECRET, SECRET] },
  ],
  [
    'rotation-list-without-spaces',
    'X-Webhook-Signature is an HTTP list: the server joins its signatures with a comma alone, no space after it.',
    { secrets: [OLD_SECRET], headers: rotated },
  ],
  [
    'rotation-list-with-spaces',
    'X-Webhook-Signature is an HTTP list: a space after each comma, as HTTP libraries join a list, is accepted too.',
    {
      secrets: [OLD_SECRET],
      headers: { ...rotated, 'X-Webhook-Signature': rotated['X-Webhook-Signature'].replace(',', ', ') },
    },
  ],
  [
    'rotation-repeated-header',
    'The signatures may also come as a repeated header (a list of values), which is the same list.',
    {
      secrets: [OLD_SECRET],
      headers: { ...rotated, 'X-Webhook-Signature': rotated['X-Webhook-Signature'].split(',') },
    },
  ],
  [
    'rotation-repeated-standard-header',
    'webhook-signature may come as a repeated header too; each value adds its entries.',
    {
      secrets: [OLD_SECRET],
      headers: { ...rotated, 'webhook-signature': rotated['webhook-signature'].split(' ') },
    },
  ],
  [
    'rotation-neither-secret',
    'Signed with two secrets, neither of which the receiver holds.',
    { secrets: [OTHER_SECRET], headers: rotated, expected: invalid('invalid_signature') },
  ],
  [
    'tampered-body',
    'One character of the body changed after signing.',
    { body: BODY.replace('"total":42', '"total":43'), expected: invalid('invalid_signature') },
  ],
  [
    'reserialized-json-body',
    'The body parsed and serialised again with other spacing: same JSON, other bytes. Verify the raw body.',
    { body: JSON.stringify(JSON.parse(BODY), null, 2), expected: invalid('invalid_signature') },
  ],
  [
    'tampered-body-standard-only',
    'A changed body with only the Standard Webhooks headers.',
    {
      body: BODY.replace('"total":42', '"total":43'),
      headers: pick(headers, STANDARD_ONLY),
      expected: invalid('invalid_signature'),
    },
  ],
  [
    'tampered-webhook-id',
    'webhook-id is signed: changing it breaks the Standard Webhooks signature even though X-Webhook-Signature still matches.',
    { headers: { ...headers, 'webhook-id': 'evt_replayed' }, expected: invalid('invalid_signature') },
  ],
  [
    'x-signature-of-another-body',
    'Every scheme present must check out: a valid webhook-signature does not make up for a wrong X-Webhook-Signature.',
    {
      headers: {
        ...headers,
        'X-Webhook-Signature': hexSignature(SECRET, BODY.replace('"total":42', '"total":43')),
      },
      expected: invalid('invalid_signature'),
    },
  ],
  [
    'wrong-secret',
    'The receiver holds another secret.',
    { secrets: [OTHER_SECRET], expected: invalid('invalid_signature') },
  ],
  [
    'wrong-secret-standard-only',
    'Another secret, with only the Standard Webhooks headers.',
    {
      secrets: [OTHER_SECRET],
      headers: pick(headers, STANDARD_ONLY),
      expected: invalid('invalid_signature'),
    },
  ],
  [
    'stale-timestamp',
    'One second more than the tolerance old: a replay or a delivery held up.',
    { now: SENT_AT + TOLERANCE + 1, expected: invalid('timestamp_too_old') },
  ],
  [
    'future-timestamp',
    'One second more than the tolerance ahead: a clock running ahead.',
    { now: SENT_AT - TOLERANCE - 1, expected: invalid('timestamp_in_future') },
  ],
  [
    'stale-x-webhook-timestamp-only',
    'X-Webhook-Timestamp is checked against the tolerance too when it is the only timestamp.',
    { headers: pick(headers, X_ONLY), now: SENT_AT + TOLERANCE + 1, expected: invalid('timestamp_too_old') },
  ],
  [
    'stale-custom-tolerance',
    'A minute and a second old, with a tolerance of a minute.',
    { now: SENT_AT + 61, toleranceSeconds: 60, expected: invalid('timestamp_too_old') },
  ],
  [
    'stale-and-wrong-secret',
    'Timestamps are checked before signatures, so a stale delivery says so whatever the secret.',
    { secrets: [OTHER_SECRET], now: SENT_AT + 3600, expected: invalid('timestamp_too_old') },
  ],
  [
    'missing-signature-headers',
    'Neither X-Webhook-Signature nor webhook-signature: not a signed delivery.',
    {
      headers: without(headers, ['X-Webhook-Signature', 'webhook-signature']),
      expected: invalid('missing_header'),
    },
  ],
  ['missing-all-headers', 'No headers at all.', { headers: {}, expected: invalid('missing_header') }],
  [
    'missing-webhook-id',
    'webhook-signature without webhook-id, which it signs.',
    { headers: without(headers, ['webhook-id']), expected: invalid('missing_header') },
  ],
  [
    'missing-webhook-timestamp',
    'webhook-signature without webhook-timestamp, which it signs.',
    { headers: without(headers, ['webhook-timestamp']), expected: invalid('missing_header') },
  ],
  [
    'malformed-short-hex',
    'X-Webhook-Signature must be 64 hex digits.',
    {
      headers: { ...headers, 'X-Webhook-Signature': headers['X-Webhook-Signature'].slice(1) },
      expected: invalid('malformed_header'),
    },
  ],
  [
    'malformed-prefixed-hex',
    'No `sha256=` prefix as some other services use: the header is the hex alone.',
    {
      headers: { ...headers, 'X-Webhook-Signature': `sha256=${headers['X-Webhook-Signature']}` },
      expected: invalid('malformed_header'),
    },
  ],
  [
    'malformed-space-separated-hex',
    'Several hex signatures are separated by commas, not spaces.',
    {
      headers: { ...rotated, 'X-Webhook-Signature': rotated['X-Webhook-Signature'].replace(',', ' ') },
      expected: invalid('malformed_header'),
    },
  ],
  [
    'malformed-standard-signature-without-version',
    'Each webhook-signature entry is `version,signature`.',
    {
      headers: { ...headers, 'webhook-signature': headers['webhook-signature'].slice('v1,'.length) },
      expected: invalid('malformed_header'),
    },
  ],
  [
    'malformed-webhook-timestamp',
    'Timestamps are Unix seconds, not dates.',
    {
      headers: { ...headers, 'webhook-timestamp': '2026-01-01T00:00:00Z' },
      expected: invalid('malformed_header'),
    },
  ],
  [
    'malformed-x-webhook-timestamp',
    'Timestamps are Unix seconds, not milliseconds with a fraction.',
    {
      headers: { ...headers, 'X-Webhook-Timestamp': '1767225600000.5' },
      expected: invalid('malformed_header'),
    },
  ],
  [
    'standard-unknown-version-skipped',
    'Entries of versions other than v1 are skipped; the v1 entry decides.',
    {
      headers: {
        ...headers,
        'webhook-signature': `v1a,${Buffer.alloc(64, 1).toString('base64')} ${headers['webhook-signature']}`,
      },
    },
  ],
  [
    'standard-no-v1-entry',
    'Only entries of another version: nothing this verifier can check.',
    {
      headers: {
        ...pick(headers, STANDARD_ONLY),
        'webhook-signature': `v1a,${Buffer.alloc(64, 1).toString('base64')}`,
      },
      expected: invalid('invalid_signature'),
    },
  ],
  [
    'chosen-secret-x-webhook-only',
    'A secret chosen by the user need not be base64: X-Webhook-Signature uses its UTF-8 bytes whatever they are.',
    {
      secrets: [CHOSEN_SECRET],
      headers: pick(deliveryHeaders(BODY, [CHOSEN_SECRET]), X_ONLY),
    },
  ],
  [
    'chosen-secret-with-standard-headers',
    'Standard Webhooks keys are base64: with no secret that decodes, webhook-signature cannot be checked.',
    {
      secrets: [CHOSEN_SECRET],
      headers: { ...pick(deliveryHeaders(BODY, [CHOSEN_SECRET]), X_ONLY), ...pick(headers, STANDARD_ONLY) },
      expected: invalid('invalid_secret'),
    },
  ],
  [
    'secret-without-whsec-prefix',
    'A base64 secret without the whsec_ prefix is decoded whole for Standard Webhooks, as their libraries do.',
    { secrets: [UNPREFIXED_SECRET], headers: deliveryHeaders(BODY, [UNPREFIXED_SECRET]) },
  ],
];

function vector([id, comment, fields]) {
  const { secrets = [SECRET], body = BODY, now = SENT_AT, expected = valid, ...rest } = fields;
  return {
    id,
    comment,
    secrets,
    body,
    headers: rest.headers ?? headers,
    now,
    toleranceSeconds: rest.toleranceSeconds ?? TOLERANCE,
    expected,
  };
}

/** The file's text. */
export function vectorsJson() {
  const document = {
    description:
      'Test vectors for verifiers of dataplatform webhook deliveries (X-Webhook-Signature and Standard Webhooks). Format: spec/webhooks/README.md. Generated by spec/webhooks/generate.mjs; do not edit.',
    version: 1,
    vectors: cases.map(vector),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = vectorsJson();
  if (process.argv.includes('--check')) {
    if (readFileSync(FILE, 'utf8') !== text) {
      console.error('spec/webhooks/vectors.json is stale: run node spec/webhooks/generate.mjs');
      process.exit(1);
    }
  } else {
    writeFileSync(FILE, text);
    console.log(`wrote ${cases.length} vectors to spec/webhooks/vectors.json`);
  }
}
