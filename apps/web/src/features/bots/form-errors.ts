/** The first message in a react-hook-form error tree (arrays and nested objects included). */
export function firstError(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  if ('message' in error && typeof error.message === 'string' && error.message) return error.message;
  for (const value of Object.values(error)) {
    if (value && typeof value === 'object' && value !== error) {
      const found = firstError(value);
      if (found) return found;
    }
  }
  return undefined;
}
