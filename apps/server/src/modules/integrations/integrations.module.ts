import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { integrationsRoutes } from './integrations.routes.js';
import { IntegrationsService } from './integrations.service.js';

/** Integrations that explain themselves: what this install is set up for, for workspaces and admins. */
export const integrationsModule: FeatureModule = {
  routes: (deps: ModuleDeps) =>
    integrationsRoutes(new IntegrationsService(deps.config, entitlementsOf(deps))),
};
