import { z } from 'zod';
import { Id, inputText } from './common.js';
import { CALENDAR_PROVIDERS } from './constants.js';
import { MESSAGES } from './messages.js';
import { BOTS_SUBJECT, need, type RouteRule } from './rules.js';

/** Calendar booking per bot (console.md section 7 Calendar booking): each route and what it needs. */
export const CALENDAR_ROUTE_RULES = {
  'POST /bots/:botId/calendar-booking': need(BOTS_SUBJECT, 'write'),
  'GET /bots/:botId/calendar-booking': need(BOTS_SUBJECT, 'read'),
  'DELETE /bots/:botId/calendar-booking': need(BOTS_SUBJECT, 'write'),
} as const satisfies Record<string, RouteRule>;

export type CalendarProvider = (typeof CALENDAR_PROVIDERS)[number];

/** How the console names each provider (console.md section 9 Calendar providers). */
export const CALENDAR_PROVIDER_LABELS: Record<CalendarProvider, string> = {
  google: 'Google Calendar',
  calendly: 'Calendly',
  cal: 'Cal.com',
  tidycal: 'TidyCal',
};

export const CALENDAR_LIMITS = { messageMax: 2000, titleMax: 200, urlMax: 2048 } as const;

export const BotIdParams = z.object({ botId: Id });

/** No user name or password in the link; one that is not a URL at all is the URL check's to report. */
const withoutCredentials = (url: string) => {
  try {
    const parsed = new URL(url);
    return parsed.username === '' && parsed.password === '';
  } catch {
    return true;
  }
};

const required = (message: string, max: number) =>
  inputText({ error: message }).trim().min(1, message).max(max, `At most ${max} characters`);

/** console.md section 5 Calendar booking: message and title required, a valid http(s) URL, a known provider. */
export const CalendarBookingBody = z.object({
  /** What the bot says when it offers the booking link. */
  message: required(MESSAGES.calendar.messageRequired, CALENDAR_LIMITS.messageMax),
  provider: z.enum(CALENDAR_PROVIDERS, {
    error: `Provider must be one of ${CALENDAR_PROVIDERS.join(', ')}`,
  }),
  /**
   * The booking page; http and https only (no javascript:, data: or mailto:), and no user name
   * before the host ("https://calendly.com@other.example" opens other.example).
   */
  url: inputText({ error: MESSAGES.calendar.urlInvalid })
    .trim()
    .max(CALENDAR_LIMITS.urlMax, MESSAGES.calendar.urlInvalid)
    .pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.hostname, error: MESSAGES.calendar.urlInvalid }))
    .refine(withoutCredentials, MESSAGES.calendar.urlInvalid),
  /** The label of the booking button. */
  title: required(MESSAGES.calendar.titleRequired, CALENDAR_LIMITS.titleMax),
});
export type CalendarBookingBody = z.infer<typeof CalendarBookingBody>;
export type CalendarBookingDraft = z.input<typeof CalendarBookingBody>;

/** A bot's calendar booking configuration (console.md section 3 Calendar booking). */
export const CalendarBooking = z.object({
  bot_id: z.number().int(),
  message: z.string(),
  provider: z.enum(CALENDAR_PROVIDERS),
  url: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CalendarBooking = z.infer<typeof CalendarBooking>;
