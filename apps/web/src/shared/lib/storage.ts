/**
 * Every localStorage key the console uses, in one place so "clear storage" and the tests agree.
 * The spec fixes `accessToken`; the others are ours.
 */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  accessTokenExpiresAt: 'accessTokenExpiresAt',
  userData: 'userData',
  settings: 'settings',
  redirectPath: 'redirectPath',
  planId: 'planId',
  planFrequency: 'planFrequency',
  addOnId: 'addOnId',
  addOnPlan: 'addOnPlan',
  addOnQuant: 'addOnQuant',
} as const;

/** The part of Storage the console needs; tests pass a Map-backed fake. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** localStorage, or an in-memory store where it is unavailable (private mode, tests). */
export function browserStore(): KeyValueStore {
  try {
    if (typeof window !== 'undefined' && window.localStorage) return window.localStorage;
  } catch {
    // Access can throw when storage is disabled; fall through to memory.
  }
  return memoryStore();
}

export function memoryStore(initial: Record<string, string> = {}): KeyValueStore {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => {
      map.set(k, String(v));
    },
    removeItem: (k) => {
      map.delete(k);
    },
    key: (i) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

/** Plan and add-on choices carried in by a URL: kept until the subscription pages use them. */
export const PLAN_KEYS = [
  STORAGE_KEYS.planId,
  STORAGE_KEYS.planFrequency,
  STORAGE_KEYS.addOnId,
  STORAGE_KEYS.addOnPlan,
  STORAGE_KEYS.addOnQuant,
] as const;

/**
 * Clears local storage except the user's layout settings: those are a preference of this device
 * (spec section 2 keeps them in local storage), not part of anyone's session. `alsoKeep` spares
 * more keys, for example a plan chosen in the URL that sent the visitor to /login.
 */
export function clearStorage(store: KeyValueStore = browserStore(), alsoKeep: readonly string[] = []): void {
  const keep = new Set<string>([STORAGE_KEYS.settings, ...alsoKeep]);
  const keys: string[] = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (key !== null && !keep.has(key)) keys.push(key);
  }
  for (const key of keys) store.removeItem(key);
}
