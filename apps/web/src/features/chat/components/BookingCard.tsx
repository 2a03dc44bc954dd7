import EventAvailable from '@mui/icons-material/EventAvailable';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { safeUrl } from '@parley/chat-client';
import type { BookingAction } from '@parley/contracts';
import { createContext, useContext } from 'react';
import { useChatTexts } from '../texts';

/**
 * What a click on a booking button also does: the full-page chat reports it for the bot's analytics
 * (as the widget does); the playground provides nothing, as the owner's tests are no visitors.
 */
export const BookingClickContext = createContext<(() => void) | undefined>(undefined);

export type Booking = { title: string; message: string; url: string };

/** The bot's calendar booking: its title, message and a button to the booking page. */
export function BookingCard({ booking }: { booking: Booking }) {
  const t = useChatTexts();
  const onClick = useContext(BookingClickContext);
  const url = safeUrl(booking.url);
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} role="region" aria-label={t.bookMeeting}>
      <Typography variant="subtitle2">{booking.title}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1, whiteSpace: 'pre-wrap' }}>
        {booking.message}
      </Typography>
      {url ? (
        <Button
          size="small"
          variant="contained"
          startIcon={<EventAvailable />}
          href={url}
          target="_blank"
          rel="noopener noreferrer nofollow"
          onClick={onClick}
        >
          {t.bookTime}
        </Button>
      ) : null}
    </Paper>
  );
}

/** An answer's booking action: a button to the booking page, under the bot's words. */
export function BookingButton({ action }: { action: Pick<BookingAction, 'title' | 'url'> }) {
  const t = useChatTexts();
  const onClick = useContext(BookingClickContext);
  const url = safeUrl(action.url);
  if (!url || url.startsWith('mailto:')) return null;
  return (
    <Button
      size="small"
      variant="contained"
      startIcon={<EventAvailable />}
      href={url}
      target="_blank"
      rel="noopener noreferrer nofollow"
      onClick={onClick}
      sx={{ mt: 1 }}
    >
      {action.title || t.bookTime}
    </Button>
  );
}
