import {
  ANALYTICS_LIMITS,
  AnalyticsInsights,
  AnalyticsOverview,
  AnalyticsPeriodQuery,
  AnalyticsRevenue,
  BookingClickRequest,
  ErrorResponse,
  MessageResponse,
  RatingRequest,
  RatingResponse,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { perIpLimit } from '../../core/http/ip-limit.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { botCacheOf } from '../bots/bot-cache.js';
import { VisitorTokens } from '../chat/visitor.js';
import { AnalyticsService } from './analytics.service.js';
import { rollUpDue } from './rollup.js';

const tags = ['Analytics'];
const made = new WeakMap<ModuleDeps, AnalyticsService>();

/** One service per app (Home reads its summary too). */
export function analyticsOf(deps: ModuleDeps): AnalyticsService {
  let service = made.get(deps);
  if (!service) {
    service = new AnalyticsService({
      db: deps.db,
      clock: deps.clock,
      entitlements: entitlementsOf(deps),
      bots: botCacheOf(deps),
      visitors: new VisitorTokens(deps.config.appSecret),
      appSecret: deps.config.appSecret,
      ownOrigin: new URL(deps.config.publicUrl).origin,
    });
    made.set(deps, service);
  }
  return service;
}

const routes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const analytics = analyticsOf(deps);
    // Ratings and booking clicks per IP address.
    const limit = perIpLimit('analytics', ANALYTICS_LIMITS.publicPerMinute, 60);
    const errors = { 402: ErrorResponse, 404: ErrorResponse };

    app.get(
      '/analytics/overview',
      {
        schema: {
          tags,
          summary:
            'Counts for a period (from, to: UTC days, both included; the last 30 days by default) and optionally one bot; daily rows with the dashboard level',
          querystring: AnalyticsPeriodQuery,
          response: { 200: AnalyticsOverview, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return analytics.overview(requireAuth(request), request.query);
      },
    );
    app.get(
      '/analytics/insights',
      {
        schema: {
          tags,
          summary:
            'Most asked and unanswered questions, sources cited most and never, satisfaction (advanced level)',
          querystring: AnalyticsPeriodQuery,
          response: { 200: AnalyticsInsights, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return analytics.insights(requireAuth(request), request.query);
      },
    );
    app.get(
      '/analytics/revenue',
      {
        schema: {
          tags,
          summary:
            'What the bots brought: attributed store orders as money per currency, per bot and channel; bookings, leads, campaign replies (advanced level)',
          querystring: AnalyticsPeriodQuery,
          response: { 200: AnalyticsRevenue, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return analytics.revenue(requireAuth(request), request.query);
      },
    );
    app.get(
      '/analytics/export.csv',
      {
        schema: {
          tags,
          summary: "The period's counts per day and channel as CSV (dashboard level; errors as JSON)",
          querystring: AnalyticsPeriodQuery,
        },
      },
      async (request, reply) => {
        const file = await analytics.csv(requireAuth(request), request.query);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );
    app.post(
      '/analytics/ratings',
      {
        schema: {
          tags,
          summary:
            'A thumbs up or down on a bot answer (null takes it back): a visitor with their visitor_token, or a signed-in user on their playground chat',
          security: [],
          body: RatingRequest,
          response: { 200: RatingResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse },
        },
        preHandler: limit,
      },
      async (request) => analytics.rate(request.body, { auth: request.auth, origin: request.headers.origin }),
    );
    app.post(
      '/analytics/booking-clicks',
      {
        schema: {
          tags,
          summary: "The widget reports a click on the bot's booking button",
          security: [],
          body: BookingClickRequest,
          response: { 201: MessageResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse },
        },
        preHandler: limit,
      },
      async (request, reply) => {
        await analytics.bookingClick(request.body, request.headers.origin);
        return reply.status(201).send({ message: 'Recorded' });
      },
    );
  };

/** Analytics: the figures, ratings and booking clicks; a scheduled rollup of closed days. */
export const analyticsModule: FeatureModule = {
  routes,
  jobs: (deps) => {
    deps.scheduler.register('analytics.rollup', (now) => rollUpDue(deps.db, now));
  },
};
