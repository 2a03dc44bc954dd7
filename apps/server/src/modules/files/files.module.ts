import type { FeatureModule } from '../../core/module.js';

/** Files: routes and jobs. */
export const filesModule: FeatureModule = {};
