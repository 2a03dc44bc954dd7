import type { PublicBot } from '@parley/contracts';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { calendarBookings, offeredBooking } from '../bots/bots.schema.js';

export type CalendarBookingRow = typeof calendarBookings.$inferSelect;
export type PublicBooking = NonNullable<PublicBot['booking']>;

/**
 * The booking a bot offers its visitors, or null when it has none. No tenant check: the caller has
 * already resolved the bot (the public bot endpoint, by uuid), and this returns only what a visitor sees.
 */
export async function bookingOfBot(db: DbOrTx, botId: number): Promise<PublicBooking | null> {
  const [row] = await db
    .select({
      title: calendarBookings.title,
      message: calendarBookings.message,
      url: calendarBookings.url,
      provider: calendarBookings.provider,
    })
    .from(calendarBookings)
    .where(and(eq(calendarBookings.botId, botId), offeredBooking));
  return row ?? null;
}

/** The tenant's booking row for a bot (the tenant filter is in the query). */
export async function findBooking(
  db: DbOrTx,
  tenantId: number,
  botId: number,
): Promise<CalendarBookingRow | undefined> {
  const [row] = await db
    .select()
    .from(calendarBookings)
    .where(and(eq(calendarBookings.botId, botId), eq(calendarBookings.tenantId, tenantId)));
  return row;
}

export type BookingValues = Pick<CalendarBookingRow, 'message' | 'provider' | 'url' | 'title'>;

/** Inserts the bot's booking, or replaces its fields (created_at kept, updated_at now). */
export async function upsertBooking(
  db: DbOrTx,
  tenantId: number,
  botId: number,
  values: BookingValues,
): Promise<CalendarBookingRow | undefined> {
  const [row] = await db
    .insert(calendarBookings)
    .values({ botId, tenantId, ...values })
    .onConflictDoUpdate({
      target: calendarBookings.botId,
      set: { ...values, updatedAt: new Date() },
      // A bot's id is the key; the tenant check keeps a row from ever changing hands.
      setWhere: eq(calendarBookings.tenantId, tenantId),
    })
    .returning();
  return row;
}

/** Deletes the bot's booking; false when there was none. */
export async function deleteBooking(db: DbOrTx, tenantId: number, botId: number): Promise<boolean> {
  const deleted = await db
    .delete(calendarBookings)
    .where(and(eq(calendarBookings.botId, botId), eq(calendarBookings.tenantId, tenantId)))
    .returning({ botId: calendarBookings.botId });
  return deleted.length > 0;
}
