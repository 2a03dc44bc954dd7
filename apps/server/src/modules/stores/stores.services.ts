import type { ModuleDeps } from '../../core/module.js';
import { OrderHelp } from './core/order-help.js';
import { StoreCore } from './core/store-core.js';
import { shopifyAdapter } from './shopify/shopify.adapter.js';
import { wooAdapter } from './woocommerce/woo.adapter.js';

export type StoreServices = { core: StoreCore; orders: OrderHelp };

const made = new WeakMap<ModuleDeps, StoreServices>();

/** Each process's store core and order help, shared by the store routes, jobs and the chat. */
export function storeServices(deps: ModuleDeps): StoreServices {
  let services = made.get(deps);
  if (!services) {
    const core = new StoreCore(deps, {
      shopify: shopifyAdapter(deps.config),
      woocommerce: wooAdapter(deps.config),
    });
    services = { core, orders: new OrderHelp(deps.db, core) };
    made.set(deps, services);
  }
  return services;
}
