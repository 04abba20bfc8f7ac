/**
 * A gzip file of `text` whose deflate data is stored, not compressed: a valid archive any gunzip reads, made
 * synchronously without zlib (the mocks also run in a browser). Its CRC-32 is real.
 */
export function storedGzip(text: string): Uint8Array<ArrayBuffer> {
  const data = new TextEncoder().encode(text);
  const blocks = Math.max(1, Math.ceil(data.length / 0xffff));
  const out = new Uint8Array(10 + data.length + blocks * 5 + 8);
  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  let at = 10;
  for (let block = 0; block < blocks; block++) {
    const chunk = data.subarray(block * 0xffff, (block + 1) * 0xffff);
    const length = chunk.length;
    out.set(
      [block === blocks - 1 ? 1 : 0, length & 0xff, length >> 8, ~length & 0xff, (~length >> 8) & 0xff],
      at,
    );
    out.set(chunk, at + 5);
    at += 5 + length;
  }
  const view = new DataView(out.buffer);
  view.setUint32(at, crc32(data), true);
  view.setUint32(at + 4, data.length >>> 0, true);
  return out;
}

let table: Uint32Array | undefined;

function crc32(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
