import type { RouteRule } from './rules.js';

/** The website crawler (integrations-and-billing.md section 7 Crawler): each route and what it needs. */
export const CRAWLER_ROUTE_RULES = {} as const satisfies Record<string, RouteRule>;
