import type { Style } from './color.js';

/**
 * JSON text with two-space indentation, its keys, strings, numbers and literals coloured by `style`; with
 * `noStyle` it equals `JSON.stringify(value, null, 2)`.
 */
export function formatJson(value: unknown, style: Style, indent = ''): string {
  if (value === null) return style.magenta('null');
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = `${indent}  `;
    const items = value.map((item) => inner + formatJson(item === undefined ? null : item, style, inner));
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  switch (typeof value) {
    case 'object': {
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return '{}';
      const inner = `${indent}  `;
      const lines = entries.map(
        ([key, v]) => `${inner}${style.cyan(JSON.stringify(key))}: ${formatJson(v, style, inner)}`,
      );
      return `{\n${lines.join(',\n')}\n${indent}}`;
    }
    case 'string':
      return style.green(JSON.stringify(value));
    case 'number':
    case 'boolean':
      return style.yellow(JSON.stringify(value));
    default:
      return JSON.stringify(value) ?? 'null';
  }
}
