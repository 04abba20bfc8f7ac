// A random prefix per process and a counter, as the server makes its own: unique across clients, and cheaper than
// a random value per request. The server takes ids of this form as they are, so both sides log the same one.
const PREFIX = `req_${randomHex(6)}`;
let counter = 0;

/** A new `X-Request-Id` for one call; every attempt of the call sends the same id. */
export function newRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${PREFIX}${counter.toString(36).padStart(8, '0')}`;
}

function randomHex(bytes: number): string {
  const values = new Uint8Array(bytes);
  const c = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  if (c?.getRandomValues) c.getRandomValues(values);
  else for (let i = 0; i < bytes; i++) values[i] = Math.floor(Math.random() * 256);
  return Array.from(values, (value) => value.toString(16).padStart(2, '0')).join('');
}
