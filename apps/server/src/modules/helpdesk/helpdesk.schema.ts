import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants, users } from '../../core/db/schema.js';

/**
 * Help-desk presence: one row per agent and server process (node) with that agent's open help-desk
 * sockets there. Every node refreshes `last_seen` of its rows on a heartbeat, so all nodes agree on
 * who is online (socket_count > 0 and seen recently) even when a node dies without cleaning up.
 */
export const agentPresence = pgTable(
  'agent_presence',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The event bus origin of the process that holds the sockets. */
    nodeId: text('node_id').notNull(),
    socketCount: integer('socket_count').notNull().default(0),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.nodeId] }), index('agent_presence_tenant_idx').on(t.tenantId)],
);
