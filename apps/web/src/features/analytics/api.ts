import type {
  AnalyticsInsights,
  AnalyticsOverview,
  AnalyticsRevenue,
  BookingClickRequest,
  RatingRequest,
  RatingResponse,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

/** The period and bot the page shows: UTC days (YYYY-MM-DD), both included. */
export type PeriodArgs = { from: string; to: string; botId: number | null };

export const periodQuery = ({ from, to, botId }: PeriodArgs) =>
  `from=${from}&to=${to}${botId ? `&bot_id=${botId}` : ''}`;

export const analyticsApi = api.injectEndpoints({
  endpoints: (build) => ({
    analyticsOverview: build.query<AnalyticsOverview, PeriodArgs>({
      query: (args) => `/analytics/overview?${periodQuery(args)}`,
      extraOptions: { silent: true },
    }),
    // Silent: a plan without the level answers 402, which the page shows in place of the panel.
    analyticsInsights: build.query<AnalyticsInsights, PeriodArgs>({
      query: (args) => `/analytics/insights?${periodQuery(args)}`,
      extraOptions: { silent: true },
    }),
    analyticsRevenue: build.query<AnalyticsRevenue, PeriodArgs>({
      query: (args) => `/analytics/revenue?${periodQuery(args)}`,
      extraOptions: { silent: true },
    }),
    /** The playground's thumbs (the widget calls the same route with its visitor token). */
    rateAnswer: build.mutation<RatingResponse, RatingRequest>({
      query: (body) => ({ url: '/analytics/ratings', method: 'POST', body }),
    }),
    /** The full-page chat's visitor opened the booking page (the widget reports it the same way). */
    reportBookingClick: build.mutation<void, BookingClickRequest>({
      query: (body) => ({ url: '/analytics/booking-clicks', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
  }),
});

export const {
  useAnalyticsOverviewQuery,
  useAnalyticsInsightsQuery,
  useAnalyticsRevenueQuery,
  useRateAnswerMutation,
  useReportBookingClickMutation,
} = analyticsApi;
