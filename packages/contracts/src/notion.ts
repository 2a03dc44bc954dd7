import type { RouteRule } from './rules.js';

/** Notion connection, sync and training (integrations-and-billing.md section 7 Notion): each route and what it needs. */
export const NOTION_ROUTE_RULES = {} as const satisfies Record<string, RouteRule>;
