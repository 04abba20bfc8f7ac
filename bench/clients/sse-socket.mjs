/**
 * A server-sent event stream over a plain socket, for the realtime benchmark's receivers: a thousand streams in one
 * process cost the measurement as little as they can (an HTTP client library's streams and parser per connection
 * were most of the receivers' CPU, which the servers then waited for on a 2-core machine). It speaks just enough
 * HTTP/1.1 for one GET answered by a stream: the status line and headers, then the body as it comes, with or
 * without chunked framing (PocketBase's Go server frames its stream in chunks; a body that ends with its connection
 * has none).
 */
import { connect } from 'node:net';

/**
 * Opens `GET path` on `url` and resolves once the headers are in with `{ status, onText, onEnd, close }`: `onText(fn)`
 * hands `fn` the body's text (latin1, one character a byte) in the pieces it arrives in.
 */
export function openStream(url, path, headers) {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), noDelay: true });
  socket.setEncoding('latin1');
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(
    `GET ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/event-stream\r\n${lines.join('')}\r\n`,
  );
  let head = '';
  let deliver = () => {};
  let ended = () => {};
  let dechunk;
  return new Promise((resolve, reject) => {
    socket.on('error', (error) => {
      reject(error);
      ended(error);
    });
    socket.on('end', () => ended());
    socket.on('close', () => ended());
    socket.on('data', function onHead(text) {
      head += text;
      const split = head.indexOf('\r\n\r\n');
      if (split < 0) return;
      socket.off('data', onHead);
      const status = Number(head.slice(9, 12));
      const chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head.slice(0, split));
      const rest = head.slice(split + 4);
      dechunk = chunked ? chunkReader((piece) => deliver(piece)) : undefined;
      socket.on('data', (piece) => (dechunk ? dechunk(piece) : deliver(piece)));
      let once = false;
      resolve({
        status,
        onText(fn) {
          deliver = fn;
          if (rest) (dechunk ?? fn)(rest);
        },
        /** `fn` runs once when the body ends, with the socket's error if it failed. */
        onEnd(fn) {
          ended = (error) => {
            if (once) return;
            once = true;
            fn(error);
          };
        },
        close: () => socket.destroy(),
      });
    });
  });
}

/** Strips chunked framing from a body that arrives in pieces, handing each chunk's data to `onData`. */
function chunkReader(onData) {
  let line = '';
  let left = 0;
  let crlf = 0;
  return (text) => {
    let at = 0;
    while (at < text.length) {
      if (crlf > 0) {
        const skip = Math.min(crlf, text.length - at);
        crlf -= skip;
        at += skip;
      } else if (left > 0) {
        const piece = text.slice(at, at + left);
        left -= piece.length;
        at += piece.length;
        if (left === 0) crlf = 2;
        onData(piece);
      } else {
        const end = text.indexOf('\r\n', at);
        if (end < 0) {
          line += text.slice(at);
          return;
        }
        line += text.slice(at, end);
        at = end + 2;
        left = Number.parseInt(line, 16);
        line = '';
        // The last chunk (size 0) ends the body; what follows it (trailers) is not data.
        if (!left) return;
      }
    }
  };
}
