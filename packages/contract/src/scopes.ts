/** Scopes the data routes name. */
export const DATA_SCOPES = ['data:read', 'data:write', 'webhooks:manage'] as const;

/** Scopes of the key-management description, by group. */
export const SCOPE_GROUPS = {
  read: ['database:read', 'metadata:read', 'logs:read'],
  write: ['database:write', 'notebook:create', 'experiment:write'],
  execute: ['query:execute', 'function:invoke', 'orchestration:execute'],
  admin: ['team:manage', 'settings:modify', 'billing:manage'],
} as const;

/** Every scope a key can hold. */
export const SCOPES = [...DATA_SCOPES, ...Object.values(SCOPE_GROUPS).flat()] as const;

/** A scope a key can hold. */
export type Scope = (typeof SCOPES)[number];

/** Scopes that are other names of a data scope: holding the alias is holding the scope. */
export const SCOPE_ALIASES: Readonly<Record<string, Scope>> = {
  'database:read': 'data:read',
  'database:write': 'data:write',
};

/** True when `value` is a known scope name. */
export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The scopes a key effectively holds: its own plus what its aliases stand for. */
export function effectiveScopes(granted: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const scope of granted) {
    out.add(scope);
    const target = SCOPE_ALIASES[scope];
    if (target) out.add(target);
  }
  return out;
}

/** True when the granted scopes satisfy any one of the alternatives. */
export function satisfiesScope(granted: ReadonlySet<string>, anyOf: readonly string[]): boolean {
  return anyOf.length === 0 || anyOf.some((scope) => granted.has(scope));
}
