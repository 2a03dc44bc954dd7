import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { affiliateRoutes } from './affiliates.routes.js';
import { approveDue } from './commissions.service.js';

/** Partners, referral links, attribution and commissions; the sweep that approves commissions. */
export const affiliatesModule: FeatureModule = {
  routes: (deps: ModuleDeps) => affiliateRoutes(deps),
  jobs: (deps: ModuleDeps) => {
    // One UPDATE of the due rows: running on every worker at once approves each row once.
    deps.scheduler.register('affiliates.approve-commissions', (now) => approveDue(deps.db, now));
  },
};
