import { useSyncExternalStore } from 'react';

/**
 * The creation wizard's "created bot" (spec section 4, Bot lifecycle): the id of the bot the wizard
 * made last. It outlives the wizard page for the session and is cleared when a reloaded bot list no
 * longer holds it (deleted here or elsewhere).
 */
let createdBotId: number | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function setCreatedBot(id: number | null): void {
  if (createdBotId === id) return;
  createdBotId = id;
  emit();
}

export function createdBot(): number | null {
  return createdBotId;
}

/** The id to keep after a list reload: unchanged while the list holds it, else null. */
export function reconcileCreatedBot(current: number | null, botIds: readonly number[]): number | null {
  return current !== null && botIds.includes(current) ? current : null;
}

/** Applies a reloaded list to the created bot. */
export function createdBotListLoaded(botIds: readonly number[]): void {
  setCreatedBot(reconcileCreatedBot(createdBotId, botIds));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useCreatedBot(): number | null {
  return useSyncExternalStore(subscribe, createdBot, createdBot);
}
