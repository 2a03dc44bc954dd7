import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { adminRoutes } from './admin.routes.js';
import { AdminService } from './admin.service.js';
import { DemosService } from './demos.service.js';

/** The platform admins' console: workspaces, jobs, mail, health and the Capability Demos. */
export const adminModule: FeatureModule = {
  routes: (deps: ModuleDeps) => adminRoutes(new AdminService(deps), new DemosService(deps)),
};
