import { createRequire } from 'node:module';
import type { Histogram } from 'hdr-histogram-js';

type Hdr = typeof import('hdr-histogram-js');
let hdr: Hdr | undefined;

/** hdr-histogram-js, loaded on the first request measured (a server that answers nothing never loads it). */
function library(): Hdr {
  hdr ??= createRequire(import.meta.url)('hdr-histogram-js') as Hdr;
  return hdr;
}

/**
 * A latency histogram in microseconds: HDR with two significant digits (at most 1 % error on any percentile),
 * growing as needed. Histograms merge exactly, so an hour's percentiles are those of its minutes'
 * requests together, never an average of the minutes' percentiles.
 */
export function newSketch(): Histogram {
  return library().build({
    // 32-bit counts: a few kilobytes per histogram, and a record costs a fraction of the packed form's.
    bitBucketSize: 32,
    numberOfSignificantValueDigits: 2,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000_000,
    autoResize: true,
    useWebAssembly: false,
  });
}

/** A histogram as stored: compressed and base64. */
export function encodeSketch(sketch: Histogram): string {
  return library().encodeIntoCompressedBase64(sketch);
}

/** Merges two stored histograms (either may be null) into one stored histogram. */
export function mergeSketches(a: string | null, b: string | null): string {
  const merged = newSketch();
  for (const text of [a, b]) if (text) merged.add(library().decodeFromCompressedBase64(text, 32, false));
  return encodeSketch(merged);
}

/** p50, p95 and p99 of a stored histogram, in milliseconds with microsecond precision. */
export function percentilesOf(text: string | null): { p50Ms: number; p95Ms: number; p99Ms: number } {
  if (!text) return { p50Ms: 0, p95Ms: 0, p99Ms: 0 };
  const sketch = library().decodeFromCompressedBase64(text, 32, false);
  const at = (p: number) => sketch.getValueAtPercentile(p) / 1000;
  return { p50Ms: at(50), p95Ms: at(95), p99Ms: at(99) };
}
