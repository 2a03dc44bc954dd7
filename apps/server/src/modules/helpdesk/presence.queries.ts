import type { Presence } from '@parley/contracts';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { agentPresence } from './helpdesk.schema.js';

/** A node refreshes its rows this often; a row not refreshed for ONLINE_SECONDS is a dead node's. */
export const HEARTBEAT_MS = 10_000;
export const ONLINE_SECONDS = 30;

const fresh = sql`${agentPresence.lastSeen} > now() - make_interval(secs => ${ONLINE_SECONDS})`;

/** Agents of a tenant with an open help-desk socket on any live node. */
export async function presenceOf(db: DbOrTx, tenantId: number): Promise<Presence> {
  const [row] = await db
    .select({ count: sql<number>`count(distinct ${agentPresence.userId})::int` })
    .from(agentPresence)
    .where(and(eq(agentPresence.tenantId, tenantId), gt(agentPresence.socketCount, 0), fresh));
  const count = row?.count ?? 0;
  return { agents_online: count > 0, count };
}

/** One more socket of this agent on this node. */
export async function socketOpened(db: DbOrTx, key: PresenceKey): Promise<void> {
  await db
    .insert(agentPresence)
    .values({ ...key, socketCount: 1 })
    .onConflictDoUpdate({
      target: [agentPresence.userId, agentPresence.nodeId],
      set: { socketCount: sql`${agentPresence.socketCount} + 1`, lastSeen: sql`now()` },
    });
}

/** One socket fewer; the row stays (socket_count 0) so the time the agent left is known. */
export async function socketClosed(db: DbOrTx, key: PresenceKey): Promise<void> {
  await db
    .update(agentPresence)
    .set({ socketCount: sql`greatest(${agentPresence.socketCount} - 1, 0)`, lastSeen: sql`now()` })
    .where(and(eq(agentPresence.userId, key.userId), eq(agentPresence.nodeId, key.nodeId)));
}

/** The agent said goodbye (POST /chat/websocket/disconnect): offline on every node, now. */
export async function agentGone(db: DbOrTx, tenantId: number, userId: number): Promise<void> {
  await db
    .update(agentPresence)
    .set({ socketCount: 0, lastSeen: sql`now()` })
    .where(and(eq(agentPresence.tenantId, tenantId), eq(agentPresence.userId, userId)));
}

/** The heartbeat of a node: its agents with open sockets are still there. */
export async function heartbeat(db: DbOrTx, nodeId: string): Promise<void> {
  await db
    .update(agentPresence)
    .set({ lastSeen: sql`now()` })
    .where(and(eq(agentPresence.nodeId, nodeId), gt(agentPresence.socketCount, 0)));
}

/** A node shutting down: its sockets are gone. Returns the tenants whose presence may change. */
export async function nodeStopped(db: DbOrTx, nodeId: string): Promise<number[]> {
  const rows = await db
    .update(agentPresence)
    .set({ socketCount: 0, lastSeen: sql`now()` })
    .where(and(eq(agentPresence.nodeId, nodeId), gt(agentPresence.socketCount, 0)))
    .returning({ tenantId: agentPresence.tenantId });
  return [...new Set(rows.map((r) => r.tenantId))];
}

/** Rows of nodes that died without cleaning up: zeroed, so their tenants can be told. */
export async function expireDeadNodes(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .update(agentPresence)
    .set({ socketCount: 0 })
    .where(
      and(
        gt(agentPresence.socketCount, 0),
        sql`${agentPresence.lastSeen} <= now() - make_interval(secs => ${ONLINE_SECONDS})`,
      ),
    )
    .returning({ tenantId: agentPresence.tenantId });
  await db
    .delete(agentPresence)
    .where(and(eq(agentPresence.socketCount, 0), sql`${agentPresence.lastSeen} < now() - interval '1 day'`));
  return [...new Set(rows.map((r) => r.tenantId))];
}

export type PresenceKey = { tenantId: number; userId: number; nodeId: string };
