/**
 * The request body exactly as it arrived: the bytes (`Uint8Array`, Node's `Buffer`, `ArrayBuffer`, any typed
 * array or `DataView`) or their UTF-8 text. Never a parsed and re-serialised object: JSON.stringify rarely gives
 * back the bytes that were signed.
 */
export type RawBody = string | ArrayBuffer | ArrayBufferView;

/** The body as something HMAC can take: the string itself, or a byte view over the same memory. */
export function rawBodyInput(body: RawBody): string | Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) {
    return new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
  }
  throw new TypeError(
    `rawBody must be the raw request body (a string, Uint8Array, Buffer or ArrayBuffer), not ${describe(body)}: ` +
      'a body parsed as JSON cannot be verified; read it raw (see the adapters in @dataplatform/webhooks)',
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return `a ${typeof value}`;
}
