import type { RouteRule } from './rules.js';

/** Q&A, training progress and the retrieval preview (console.md section 7 Q&A): each route and what it needs. */
export const KNOWLEDGE_ROUTE_RULES = {} as const satisfies Record<string, RouteRule>;
