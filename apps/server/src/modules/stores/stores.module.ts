import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { notifyingSyncFailure } from '../notifications/notifications.service.js';
import {
  STORE_SYNC_JOB,
  STORE_TRAIN_JOB,
  STORE_WEBHOOK_JOB,
  type StoreSyncData,
  type StoreTrainData,
  type StoreWebhookData,
} from './core/store-core.js';
import { shopifyRoutes } from './shopify/shopify.routes.js';
import { ShopifyService } from './shopify/shopify.service.js';
import { storeServices } from './stores.services.js';
import { wooRoutes } from './woocommerce/woo.routes.js';
import { WooService } from './woocommerce/woo.service.js';

const TRAIN_ATTEMPTS = 3;
/** How often expired discounts and coupons are looked for: a shopper may hear of one this long after. */
const OFFER_SWEEP_MS = 10 * 60_000;

/** Online stores: Shopify and WooCommerce routes and webhooks, and the sync, training and webhook jobs. */
export const storesModule: FeatureModule = {
  routes: (deps: ModuleDeps) => async (app) => {
    const { core } = storeServices(deps);
    await app.register(shopifyRoutes(new ShopifyService(deps, core)));
    await app.register(wooRoutes(new WooService(deps, core)));
  },
  jobs: (deps: ModuleDeps) => {
    const { core } = storeServices(deps);
    const platforms = { shopify: new ShopifyService(deps, core), woocommerce: new WooService(deps, core) };
    deps.jobs.register<StoreSyncData>(
      STORE_SYNC_JOB,
      notifyingSyncFailure(
        deps.db,
        1,
        () => ({ what: 'store', link: '/integrations' }),
        (job) => core.runSync(job, job.tenantId!, job.data),
        (result) => (result as { status?: string } | undefined)?.status === 'error',
      ),
      { maxAttempts: 1 },
    );
    deps.jobs.register<StoreTrainData>(
      STORE_TRAIN_JOB,
      (job) => core.runTraining(job, job.tenantId!, job.data, job.attempt >= TRAIN_ATTEMPTS),
      { maxAttempts: TRAIN_ATTEMPTS, backoffBaseMs: 500 },
    );
    deps.jobs.register<StoreWebhookData>(
      STORE_WEBHOOK_JOB,
      async (job) => {
        const store = await core.storeById(job.tenantId!, job.data.storeId);
        if (store) await platforms[store.platform].applyWebhook(store, job.data.topic, job.data.payload);
      },
      { maxAttempts: 5, backoffBaseMs: 1000 },
    );
    deps.scheduler.register('stores.webhook-events.prune', (now) => core.pruneWebhookEvents(now));
    // Every worker sweeps (deleting twice is harmless), at most every few minutes: a scan of offers.
    let sweptAt = Number.NEGATIVE_INFINITY;
    deps.scheduler.register('stores.offers.expire', async (now) => {
      if (now.getTime() - sweptAt < OFFER_SWEEP_MS) return;
      sweptAt = now.getTime();
      await core.forgetExpiredOffers(now);
    });
  },
};
