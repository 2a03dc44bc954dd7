import type { CalendarBooking, CalendarBookingBody, MessageResponse } from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['CalendarBooking'] });

/**
 * A bot's calendar booking (console.md section 7 Calendar booking). All three calls are silent: the
 * panel shows the spec's texts. A 404 on load means "no configuration" and arrives as `null`.
 */
export const calendarApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    calendarBooking: build.query<CalendarBooking | null, number>({
      queryFn: async (botId, _api, _extra, baseQuery) => {
        const result = await baseQuery(`/bots/${botId}/calendar-booking`);
        if (result.error?.status === 404) return { data: null };
        if (result.error) return { error: result.error };
        return { data: result.data as CalendarBooking };
      },
      extraOptions: { silent: true },
      providesTags: (_result, _error, botId) => [{ type: 'CalendarBooking', id: botId }],
    }),
    saveCalendarBooking: build.mutation<CalendarBooking, { botId: number; body: CalendarBookingBody }>({
      query: ({ botId, body }) => ({ url: `/bots/${botId}/calendar-booking`, method: 'POST', body }),
      extraOptions: { silent: true },
      // The saved configuration is the answer: put it in the cache instead of loading it again.
      async onQueryStarted({ botId }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(calendarApi.util.upsertQueryData('calendarBooking', botId, data));
        } catch {
          // the panel reports the failure
        }
      },
    }),
    deleteCalendarBooking: build.mutation<MessageResponse, number>({
      query: (botId) => ({ url: `/bots/${botId}/calendar-booking`, method: 'DELETE' }),
      extraOptions: { silent: true },
      async onQueryStarted(botId, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
          dispatch(calendarApi.util.upsertQueryData('calendarBooking', botId, null));
        } catch {
          // the panel reports the failure
        }
      },
    }),
  }),
});

export const { useCalendarBookingQuery, useSaveCalendarBookingMutation, useDeleteCalendarBookingMutation } =
  calendarApi;
