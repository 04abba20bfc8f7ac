import { sign } from '../src/node.js';

export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/**
 * A body as a sender other than JSON.stringify may write it: spaces, an escaped "ë" and 42.0. Parsing and
 * serialising it again gives other bytes, which is why receivers must verify the raw body.
 */
export const FORMATTED_BODY =
  '{"id": "evt_1", "type": "document.created", "collection": "orders", "data": {"customer": "Zo\\u00eb", "total": 42.0}}';

/** A body and the headers the server would send with it. */
export function delivery(body = FORMATTED_BODY, secret: string | string[] = SECRET) {
  return {
    body,
    headers: { 'content-type': 'application/json', ...sign(body, secret, { event: 'document.created' }) },
  };
}

/** `delivery()` with one character of the body changed after signing. */
export function tamperedDelivery() {
  const { body, headers } = delivery();
  return { body: body.replace('42.0', '43.0'), headers };
}
