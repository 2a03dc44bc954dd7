import {
  CALENDAR_PROVIDER_LABELS,
  CALENDAR_PROVIDERS,
  type CalendarBooking,
  type CalendarBookingDraft,
} from '@parley/contracts';

/** What the panel shows for its load request (console.md section 4: a 404 is "no configuration"). */
export type LoadView = 'loading' | 'failed' | 'empty' | 'loaded';

export function loadView(query: {
  isLoading: boolean;
  isError: boolean;
  data?: CalendarBooking | null;
}): LoadView {
  if (query.isError) return 'failed';
  if (query.isLoading || query.data === undefined) return 'loading';
  return query.data === null ? 'empty' : 'loaded';
}

/** The form's values: the saved configuration, or an empty form on the first provider. */
export function bookingDefaults(booking: CalendarBooking | null | undefined): CalendarBookingDraft {
  return {
    provider: booking?.provider ?? CALENDAR_PROVIDERS[0],
    title: booking?.title ?? '',
    url: booking?.url ?? '',
    message: booking?.message ?? '',
  };
}

export const PROVIDER_OPTIONS = CALENDAR_PROVIDERS.map((value) => ({
  value,
  label: CALENDAR_PROVIDER_LABELS[value],
}));
