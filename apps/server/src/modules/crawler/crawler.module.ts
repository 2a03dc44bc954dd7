import type { FeatureModule } from '../../core/module.js';

/** Crawler: routes and jobs. */
export const crawlerModule: FeatureModule = {};
