/** JSON with object keys sorted at every depth: the same content gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return write(value);
}

// Written out rather than rebuilt as sorted objects, so that a key such as "__proto__" stays a key.
function write(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : write(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${write(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
