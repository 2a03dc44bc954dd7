import type { Config } from '../../config.js';
import type { ModuleDeps } from '../../core/module.js';
import { Entitlements } from './entitlements.js';

const made = new WeakMap<ModuleDeps, Entitlements>();

/** Each process's entitlements: what every module asks before it lets a workspace do more. */
export function entitlementsOf(
  deps: Pick<ModuleDeps, 'db' | 'config'> & Partial<Pick<ModuleDeps, 'clock'>>,
): Entitlements {
  let entitlements = made.get(deps as ModuleDeps);
  if (!entitlements) {
    entitlements = new Entitlements(deps.db, deps.config, deps.clock);
    made.set(deps as ModuleDeps, entitlements);
  }
  return entitlements;
}

/** A payment provider is configured (Razorpay's key pair and webhook secret): plans can be bought. */
export function paymentsConfigured(
  config: Pick<Config, 'RAZORPAY_KEY_ID' | 'RAZORPAY_KEY_SECRET' | 'RAZORPAY_WEBHOOK_SECRET'>,
): boolean {
  return Boolean(config.RAZORPAY_KEY_ID && config.RAZORPAY_KEY_SECRET && config.RAZORPAY_WEBHOOK_SECRET);
}
