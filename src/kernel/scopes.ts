/** The contract's scope pairs. A key without scopes has full access; `write` includes `read`. */
export const scopeResources = [
  'invoices',
  'customers',
  'quotes',
  'credit_notes',
  'products',
  'webhooks',
  'payments',
] as const;
export type ScopeResource = (typeof scopeResources)[number];
export type KeyScope = `${ScopeResource}:${'read' | 'write'}`;

export const allScopes: readonly KeyScope[] = scopeResources.flatMap((r) => [`${r}:read`, `${r}:write`] as KeyScope[]);

/** What a route asks of a key: a scope, or `full_access` for what only an unrestricted key may do. */
export type RequiredAccess = KeyScope | 'full_access';

export function isKeyScope(value: string): value is KeyScope {
  return (allScopes as readonly string[]).includes(value);
}

export function grants(keyScopes: readonly string[] | null, required: RequiredAccess): boolean {
  if (keyScopes === null || keyScopes.length === 0) return true;
  if (required === 'full_access') return false;
  if (keyScopes.includes(required)) return true;
  const [resource, access] = required.split(':');
  return access === 'read' && keyScopes.includes(`${resource}:write`);
}
