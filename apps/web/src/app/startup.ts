import { browserStore, type KeyValueStore } from '../shared/lib/storage';
import { extractPlanParams } from './startup-rules';

/**
 * Runs once before the router starts: plan and add-on choices in the URL are stored and the URL is
 * cleaned (spec section 2), so every later rule sees the clean address.
 */
export function applyStartupParams(
  location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location,
  history: Pick<History, 'replaceState' | 'state'> = window.history,
  store: KeyValueStore = browserStore(),
): void {
  const plan = extractPlanParams(location.search);
  if (!plan) return;
  for (const [key, value] of Object.entries(plan.stored)) store.setItem(key, value);
  history.replaceState(history.state, '', `${location.pathname}${plan.search}${location.hash}`);
}
