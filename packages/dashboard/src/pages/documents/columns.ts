/** The fields worth a column for a page of documents: `_id`, then the most common other top-level fields. */
export function documentFields(documents: Record<string, unknown>[], max = 6): string[] {
  const seen = new Map<string, number>();
  for (const document of documents)
    for (const name of Object.keys(document))
      if (!name.startsWith('_')) seen.set(name, (seen.get(name) ?? 0) + 1);
  const common = [...seen.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([name]) => name);
  return ['_id', ...common, '_updatedAt'];
}
