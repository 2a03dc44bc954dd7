import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { entitlementsOf, paymentsConfigured } from './billing.services.js';
import { paymentRoutes } from './payments/payments.routes.js';
import { pricingRoutes } from './pricing.routes.js';
import { applyRetention } from './retention.js';
import { shopifyBillingRoutes } from './shopify/shopify-billing.routes.js';

const RETENTION_EVERY_MS = 60 * 60 * 1000;

/** Plans, add-ons, subscriptions and what they allow; the history retention sweep. */
export const billingModule: FeatureModule = {
  routes: (deps: ModuleDeps) => async (app) => {
    if (paymentsConfigured(deps.config) && deps.config.PLAN_LIMITS === 'off') {
      deps.log.warn(
        'Razorpay is configured but plans are off (PLAN_LIMITS=off): set PLAN_LIMITS=on to sell plans',
      );
    }
    await app.register(pricingRoutes(deps, entitlementsOf(deps)));
    await app.register(paymentRoutes(deps));
    await app.register(shopifyBillingRoutes(deps));
  },
  jobs: (deps: ModuleDeps) => {
    // Hourly is plenty for retention counted in days; the scheduler ticks every minute.
    let lastRun = 0;
    deps.scheduler.register('billing.retention', async (now) => {
      if (now.getTime() - lastRun < RETENTION_EVERY_MS) return 0;
      lastRun = now.getTime();
      return applyRetention(deps, now);
    });
  },
};
