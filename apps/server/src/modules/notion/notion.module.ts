import type { FeatureModule } from '../../core/module.js';

/** Notion: routes and jobs. */
export const notionModule: FeatureModule = {};
