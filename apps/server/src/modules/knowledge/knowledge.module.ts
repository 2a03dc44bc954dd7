import type { FeatureModule } from '../../core/module.js';

/** Knowledge: routes and jobs. */
export const knowledgeModule: FeatureModule = {};
