/**
 * What the widget keeps per bot in the visitor's browser, under keys prefixed `parley:` so they do
 * not clash with the site's own: the visitor's identity and conversation in localStorage (a reload
 * or another page of the site resumes the chat), whether the chat was open in sessionStorage.
 * Storage can be blocked (private modes, third-party rules): then nothing is kept and the chat
 * still works for the page's life.
 */
export type BotStore = {
  get: (key: StoreKey) => string | null;
  set: (key: StoreKey, value: string) => void;
  remove: (key: StoreKey) => void;
};

export type StoreKey = 'visitor' | 'conversation' | 'lead' | 'open';

const SESSION_KEYS: ReadonlySet<StoreKey> = new Set(['open']);

export function storageKey(uuid: string, key: StoreKey): string {
  return `parley:${uuid}:${key}`;
}

export function botStore(
  uuid: string,
  storages: { local: () => Storage; session: () => Storage } = {
    local: () => window.localStorage,
    session: () => window.sessionStorage,
  },
): BotStore {
  const pick = (key: StoreKey) => (SESSION_KEYS.has(key) ? storages.session() : storages.local());
  return {
    get: (key) => {
      try {
        return pick(key).getItem(storageKey(uuid, key));
      } catch {
        return null;
      }
    },
    set: (key, value) => {
      try {
        pick(key).setItem(storageKey(uuid, key), value);
      } catch {
        // Storage full or blocked: the chat goes on without it.
      }
    },
    remove: (key) => {
      try {
        pick(key).removeItem(storageKey(uuid, key));
      } catch {
        // As above.
      }
    },
  };
}
