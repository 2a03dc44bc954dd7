import {
  BotIdParams,
  CalendarBooking,
  CalendarBookingBody,
  ErrorResponse,
  MESSAGES,
  MessageResponse,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../core/http/request-context.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { botCacheOf } from '../bots/bot-cache.js';
import { CalendarService } from './calendar.service.js';

const tags = ['Calendar booking'];

const routes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const calendar = new CalendarService(deps.db, botCacheOf(deps));

    app.post(
      '/bots/:botId/calendar-booking',
      {
        schema: {
          tags,
          summary: "Create or replace the bot's calendar booking (message, provider, url, title)",
          params: BotIdParams,
          body: CalendarBookingBody,
          response: { 200: CalendarBooking },
        },
      },
      async (request) => calendar.save(requireAuth(request), request.params.botId, request.body),
    );
    app.get(
      '/bots/:botId/calendar-booking',
      {
        schema: {
          tags,
          summary: "The bot's calendar booking; 404 when none is configured",
          params: BotIdParams,
          response: { 200: CalendarBooking, 404: ErrorResponse },
        },
      },
      async (request) => calendar.get(requireAuth(request), request.params.botId),
    );
    app.delete(
      '/bots/:botId/calendar-booking',
      {
        schema: {
          tags,
          summary: "Remove the bot's calendar booking",
          params: BotIdParams,
          response: { 200: MessageResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        await calendar.remove(requireAuth(request), request.params.botId);
        return { message: MESSAGES.calendar.deleted };
      },
    );
  };

/** Calendar booking per bot (console.md section 7 Calendar booking). */
export const calendarModule: FeatureModule = { routes };

export { bookingOfBot } from './calendar.queries.js';
