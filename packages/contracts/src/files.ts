import type { RouteRule } from './rules.js';

/** File groups and uploads (integrations-and-billing.md section 7 Files): each route and what it needs. */
export const FILE_ROUTE_RULES = {} as const satisfies Record<string, RouteRule>;
