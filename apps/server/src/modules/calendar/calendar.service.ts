import type { CalendarBooking, CalendarBookingBody, CalendarProvider } from '@parley/contracts';
import type { Db } from '../../core/db/database.js';
import { notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { BotCache } from '../bots/bot-cache.js';
import { requireWorkingBot } from '../bots/bots.queries.js';
import { type CalendarBookingRow, deleteBooking, findBooking, upsertBooking } from './calendar.queries.js';

export const BOOKING_NOT_FOUND = 'No calendar booking is configured for this bot';

const toBooking = (row: CalendarBookingRow): CalendarBooking => ({
  bot_id: row.botId,
  message: row.message,
  provider: row.provider as CalendarProvider,
  url: row.url,
  title: row.title,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/**
 * A bot's calendar booking (console.md sections 3, 5, 7 Calendar booking): at most one per bot,
 * saved whole (create or replace). Every call first checks the bot is the caller's tenant's.
 */
export class CalendarService {
  constructor(
    private readonly db: Db,
    private readonly bots: BotCache,
  ) {}

  async get(auth: AuthContext, botId: number): Promise<CalendarBooking> {
    await requireWorkingBot(this.db, auth, botId);
    const row = await findBooking(this.db, auth.tenantId, botId);
    if (!row) throw notFound(BOOKING_NOT_FOUND);
    return toBooking(row);
  }

  async save(auth: AuthContext, botId: number, body: CalendarBookingBody): Promise<CalendarBooking> {
    await requireWorkingBot(this.db, auth, botId);
    const row = await upsertBooking(this.db, auth.tenantId, botId, body);
    if (!row) throw notFound('Bot not found');
    await this.bots.changed(botId);
    return toBooking(row);
  }

  async remove(auth: AuthContext, botId: number): Promise<void> {
    await requireWorkingBot(this.db, auth, botId);
    if (!(await deleteBooking(this.db, auth.tenantId, botId))) throw notFound(BOOKING_NOT_FOUND);
    await this.bots.changed(botId);
  }
}
