import type { ModuleDeps } from '../../core/module.js';
import { Entitlements } from './entitlements.js';

const made = new WeakMap<ModuleDeps, Entitlements>();

/** Each process's entitlements: what every module asks before it lets a workspace do more. */
export function entitlementsOf(deps: Pick<ModuleDeps, 'db' | 'config'>): Entitlements {
  let entitlements = made.get(deps as ModuleDeps);
  if (!entitlements) {
    entitlements = new Entitlements(deps.db, deps.config);
    made.set(deps as ModuleDeps, entitlements);
  }
  return entitlements;
}
