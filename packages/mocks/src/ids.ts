/** Crockford's base32 alphabet; its characters are in ascending code-point order, so ids compare as text. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_LENGTH = 10;
const RANDOM_LENGTH = 16;

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < TIME_LENGTH; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function randomDigits(): number[] {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(RANDOM_LENGTH));
  return Array.from(bytes, (b) => b % 32);
}

/** Adds one to a base-32 number held as digits, most significant first. */
function increment(digits: number[]): number[] {
  const out = [...digits];
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 31) {
      out[i]! += 1;
      return out;
    }
    out[i] = 0;
  }
  throw new Error('Document id space exhausted for this millisecond');
}

/**
 * Makes a generator of 26-character, ULID-shaped ids (48-bit time, 80-bit random) that sort by creation,
 * even within one millisecond and when the clock steps back (as fake timers in tests make it do).
 */
export function createIdGenerator(now: () => number = Date.now): () => string {
  let lastTime = -1;
  let lastRandom: number[] = [];
  return () => {
    const time = now();
    if (time > lastTime) {
      lastTime = time;
      lastRandom = randomDigits();
    } else {
      lastRandom = increment(lastRandom);
    }
    return encodeTime(lastTime) + lastRandom.map((d) => ALPHABET[d]).join('');
  };
}

/** A random token of `length` base-32 characters, for request ids and key secrets. */
export function randomToken(length: number): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => ALPHABET[b % 32]!.toLowerCase()).join('');
}
