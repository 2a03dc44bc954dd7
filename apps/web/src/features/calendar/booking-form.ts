import {
  CALENDAR_PROVIDER_LABELS,
  CALENDAR_PROVIDERS,
  type CalendarBooking,
  type CalendarBookingDraft,
  type CalendarProvider,
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

/**
 * Where each provider's booking pages live. Cal.com can be hosted on any domain of one's own, so a
 * link elsewhere is a warning, never a refusal: the owner may be right.
 */
const PROVIDER_HOSTS: Record<CalendarProvider, readonly string[]> = {
  google: ['calendar.google.com', 'calendar.app.google', 'google.com', 'goo.gl'],
  calendly: ['calendly.com'],
  cal: ['cal.com', 'cal.eu'],
  tidycal: ['tidycal.com'],
};

const onHost = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** The provider whose pages live at the link's host, or null for a host of none of them. */
function providerOfHost(host: string): CalendarProvider | null {
  return CALENDAR_PROVIDERS.find((provider) => PROVIDER_HOSTS[provider].some((d) => onHost(host, d))) ?? null;
}

/**
 * A warning when the link is not where the chosen provider's pages live ("a Calendly link with
 * Google Calendar chosen"), naming the provider it looks like; null when it fits, or is not a
 * valid link yet (the form's own check says so).
 */
export function providerMismatch(provider: CalendarProvider, url: string): string | null {
  let host: string;
  try {
    host = new URL(url.trim()).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (!host || PROVIDER_HOSTS[provider].some((domain) => onHost(host, domain))) return null;
  const chosen = CALENDAR_PROVIDER_LABELS[provider];
  const other = providerOfHost(host);
  if (other)
    return `This looks like a ${CALENDAR_PROVIDER_LABELS[other]} link, but ${chosen} is chosen as the provider.`;
  return `This link is not on ${PROVIDER_HOSTS[provider][0]}. Check that it is your ${chosen} booking page.`;
}
