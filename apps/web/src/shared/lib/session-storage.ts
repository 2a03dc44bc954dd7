import type { AuthResponse, User } from '@parley/contracts';
import { browserStore, type KeyValueStore, STORAGE_KEYS } from './storage';

/** The stored access token, kept under `accessToken` as the spec requires. */
export function readAccessToken(store: KeyValueStore = browserStore()): string | null {
  return store.getItem(STORAGE_KEYS.accessToken);
}

/** When the stored token expires, in epoch milliseconds, or null when unknown. */
export function readTokenExpiry(store: KeyValueStore = browserStore()): number | null {
  const raw = store.getItem(STORAGE_KEYS.accessTokenExpiresAt);
  const value = raw === null ? Number.NaN : Number(raw);
  return Number.isFinite(value) ? value : null;
}

export function readStoredUser(store: KeyValueStore = browserStore()): User | null {
  const raw = store.getItem(STORAGE_KEYS.userData);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as User;
  } catch {
    return null;
  }
}

/** Keeps what a login, signup or refresh returned. */
export function storeAuth(auth: AuthResponse, now = Date.now(), store: KeyValueStore = browserStore()): void {
  store.setItem(STORAGE_KEYS.accessToken, auth.access_token);
  store.setItem(STORAGE_KEYS.accessTokenExpiresAt, String(now + auth.expires_in * 1000));
  storeUser(auth.user, store);
}

export function storeUser(user: User, store: KeyValueStore = browserStore()): void {
  store.setItem(STORAGE_KEYS.userData, JSON.stringify(user));
}

export function clearAuth(store: KeyValueStore = browserStore()): void {
  store.removeItem(STORAGE_KEYS.accessToken);
  store.removeItem(STORAGE_KEYS.accessTokenExpiresAt);
  store.removeItem(STORAGE_KEYS.userData);
}
