/**
 * docs/benchmarks.md is the throughput part, then the scale section, then any sections other scripts add (e.g.
 * `pnpm bench:batch`). Either part can be rerun alone (`--skip-scale`, `--scale-only`), so the part not rerun is
 * kept from the page as it was, its figures and "produced by" line included; sections after the scale section
 * are always kept.
 */

const SCALE_HEADING = /^## Scale\b/m;
const ANY_SECTION = /^## /m;

const PLACEHOLDER = `# Benchmarks

The throughput part has not been run yet: \`pnpm bench --skip-scale\` runs it (\`pnpm bench\` runs both parts).
`;

/** The parts of an existing page: `{ throughput, scale, rest }`, each `undefined` where missing. */
export function splitPage(text) {
  if (!text.trim()) return {};
  const at = text.search(SCALE_HEADING);
  if (at === -1) return { throughput: text };
  // The scale section uses ### inside, so the next ## heading is someone else's section.
  const next = text.slice(at + 1).search(ANY_SECTION);
  const end = next === -1 ? text.length : at + 1 + next;
  return {
    throughput: at > 0 ? text.slice(0, at) : undefined,
    scale: text.slice(at, end),
    rest: end < text.length ? text.slice(end) : undefined,
  };
}

/** The page from its parts; a missing throughput part becomes a pointer to the command that makes it. */
export function joinPage({ throughput, scale, rest }) {
  const parts = [throughput ?? PLACEHOLDER, scale, rest].filter(Boolean).map((part) => part.trimEnd());
  return `${parts.join('\n\n')}\n`;
}

/** The page with its `## <title>` section (up to the next `## ` heading) replaced by `section`, or added at the end. */
export function replaceSection(page, title, section) {
  const start = page.indexOf(`\n## ${title}`);
  if (start === -1) return `${page.trimEnd()}\n\n${section.trimEnd()}\n`;
  const next = page.indexOf('\n## ', start + 1);
  const rest = next === -1 ? '' : `\n${page.slice(next).trimStart()}`;
  return `${page.slice(0, start).trimEnd()}\n\n${section.trimEnd()}\n${rest}`;
}
