/**
 * `value` as a URL when it is an absolute http(s) address, else undefined. The scheme is checked because
 * `localhost:5000` parses too, with the scheme "localhost:".
 */
export function parseHttpAddress(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}
