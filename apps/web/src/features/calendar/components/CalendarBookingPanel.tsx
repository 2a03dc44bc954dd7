import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BOTS_SUBJECT, CalendarBookingBody, MESSAGES } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PanelHeader } from '../../../shared/components/PanelHeader';
import { SelectField } from '../../../shared/components/SelectField';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useAbility } from '../../permissions/hooks/useAbility';
import { failureText } from '../../roles/failure';
import {
  useCalendarBookingQuery,
  useDeleteCalendarBookingMutation,
  useSaveCalendarBookingMutation,
} from '../api';
import { bookingDefaults, loadView, PROVIDER_OPTIONS, providerMismatch } from '../booking-form';

/**
 * A bot's calendar booking: the link the bot offers visitors who want to book a meeting
 * (console.md sections 3 to 8 Calendar booking). Loading, saving and deleting each have their own
 * state; a bot without a configuration shows an empty form, not an error.
 */
export function CalendarBookingPanel({ botId }: { botId: number }) {
  const notify = useNotify();
  const canWrite = useAbility().can('write', BOTS_SUBJECT);
  const load = useCalendarBookingQuery(botId);
  const [save, saveState] = useSaveCalendarBookingMutation();
  const [remove, deleteState] = useDeleteCalendarBookingMutation();
  const [confirming, setConfirming] = useState(false);
  const form = useZodForm(CalendarBookingBody, { defaultValues: bookingDefaults(null) });
  const view = loadView(load);
  const busy = saveState.isLoading || deleteState.isLoading;
  const mismatch = providerMismatch(form.watch('provider'), form.watch('url') ?? '');

  // The form follows what the server holds: after a load, a save (trimmed values) or a delete.
  const { reset } = form;
  useEffect(() => {
    if (load.data !== undefined) reset(bookingDefaults(load.data));
  }, [load.data, reset]);

  useEffect(() => {
    if (load.isError) notify.error(MESSAGES.calendar.loadFailed);
  }, [load.isError, notify]);

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await save({ botId, body }).unwrap();
      notify.success(MESSAGES.calendar.saved);
    } catch (error) {
      notify.error(failureText(MESSAGES.calendar.saveFailed, error));
    }
  });

  const onDelete = async () => {
    try {
      await remove(botId).unwrap();
      notify.success(MESSAGES.calendar.deleted);
    } catch (error) {
      notify.error(failureText(MESSAGES.calendar.deleteFailed, error));
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Card component="section" aria-labelledby={`calendar-booking-${botId}`}>
      <PanelHeader title="Calendar booking" />
      <CardContent sx={{ pt: 0 }}>
        <Typography id={`calendar-booking-${botId}`} variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          A booking link the bot offers visitors who want to schedule a meeting.
        </Typography>
        {view === 'loading' ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress aria-label="Loading calendar booking" />
          </Box>
        ) : null}
        {view === 'failed' ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => load.refetch()} disabled={load.isFetching}>
                Retry
              </Button>
            }
          >
            {MESSAGES.calendar.loadFailed}
          </Alert>
        ) : null}
        {view === 'empty' || view === 'loaded' ? (
          <Stack
            component="form"
            spacing={2.5}
            onSubmit={onSubmit}
            noValidate
            aria-label="Calendar booking configuration"
          >
            {view === 'empty' ? (
              <Alert severity="info">No calendar booking is configured for this bot yet.</Alert>
            ) : null}
            <SelectField control={form.control} name="provider" label="Provider" options={PROVIDER_OPTIONS} />
            <TextInput label="Title" placeholder="Book a meeting" {...fieldProps(form, 'title')} />
            <TextInput
              label="Booking URL"
              type="url"
              inputMode="url"
              placeholder="https://calendly.com/your-team/30min"
              {...fieldProps(form, 'url')}
            />
            {mismatch ? (
              <Alert severity="warning" role="status">
                {mismatch}
              </Alert>
            ) : null}
            <TextInput
              label="Message"
              multiline
              minRows={3}
              placeholder="Would you like to book a call with our team?"
              {...fieldProps(form, 'message')}
            />
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button type="submit" variant="contained" disabled={!canWrite || busy}>
                {saveState.isLoading ? 'Saving…' : 'Save'}
              </Button>
              {view === 'loaded' ? (
                <Button
                  color="error"
                  variant="outlined"
                  disabled={!canWrite || busy}
                  onClick={() => setConfirming(true)}
                >
                  {deleteState.isLoading ? 'Deleting…' : 'Delete'}
                </Button>
              ) : null}
            </Box>
          </Stack>
        ) : null}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title="Delete calendar booking?"
        text="The bot will stop offering this booking link to visitors."
        confirmLabel="Delete"
        busy={deleteState.isLoading}
        onConfirm={onDelete}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
