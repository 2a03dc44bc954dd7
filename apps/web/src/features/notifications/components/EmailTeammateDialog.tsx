import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MESSAGES, NOTIFICATION_LIMITS, SendEmailBody, type Teammate } from '@parley/contracts';
import { Controller } from 'react-hook-form';
import { useAppSelector } from '../../../app/store';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useTeammatesQuery } from '../../inbox/api';
import { FormDialog } from '../../roles/components/FormDialog';
import { useSendEmailNotificationMutation } from '../api';

const SEND_FAILED = 'Failed to send the email notification';

/** What the mail is about: the open conversation and its bot. */
export type EmailedConversation = { id: number; botId: number; visitor: string };

/** Mounted while open: each opening starts from a fresh draft about the conversation open then. */
type Props = {
  conversation: EmailedConversation;
  tenantId: number;
  onClose: () => void;
};

/** The inbox's deep link to a conversation (the inbox opens it from `?conversation=&bot=`). */
export function conversationLink(conversation: EmailedConversation): string {
  const query = new URLSearchParams({
    conversation: String(conversation.id),
    bot: String(conversation.botId),
  });
  return `${window.location.origin}/inbox?${query}`;
}

function draftOf(conversation: EmailedConversation) {
  return {
    user_ids: [] as number[],
    subject: `A conversation needs a look: ${conversation.visitor}`.slice(0, NOTIFICATION_LIMITS.subjectMax),
    message: `Could you have a look at this conversation?\n\nVisitor: ${conversation.visitor}\n${conversationLink(conversation)}`,
    bot_id: conversation.botId,
  };
}

const nameOf = (user: Teammate) => `${user.first_name} ${user.last_name}`.trim() || user.email;

/**
 * "Email a teammate" from an open conversation (POST /notification/send-email): teammates of the
 * workspace, a subject and a message that carries the conversation's link, about the conversation's
 * bot. The server allows NOTIFICATION_LIMITS.emailsPerHour mails per workspace; past that its 429
 * detail shows here (and in the toast every failed request raises).
 */
export function EmailTeammateDialog({ conversation, tenantId, onClose }: Props) {
  const notify = useNotify();
  // The sender is left out of the teammates to pick.
  const userId = useAppSelector((state) => state.session.user?.id);
  // The workspace's users are behind Roles read (GET /auth/user/all): without it there is no one to pick.
  const users = useTeammatesQuery(tenantId);
  const teammates = (users.data ?? []).filter((user) => user.id !== userId);
  const [send, { error, isLoading, reset }] = useSendEmailNotificationMutation();
  const form = useZodForm(SendEmailBody, { defaultValues: draftOf(conversation) });

  const close = () => {
    reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (body) => {
    const result = await send(body);
    if ('data' in result) {
      notify.success(MESSAGES.notification.emailSent);
      close();
    }
  });

  return (
    <FormDialog
      open
      id="email-teammate"
      title="Email a teammate"
      error={error ? (serverDetail(error) ?? SEND_FAILED) : null}
      busy={isLoading}
      submitLabel="Send email"
      onSubmit={onSubmit}
      onClose={close}
    >
      <Controller
        control={form.control}
        name="user_ids"
        render={({ field, fieldState }) => (
          <Autocomplete
            multiple
            size="small"
            options={teammates}
            loading={users.isLoading}
            value={teammates.filter((user) => field.value.includes(user.id))}
            onChange={(_event, chosen) => field.onChange(chosen.map((user) => user.id))}
            onBlur={field.onBlur}
            getOptionLabel={nameOf}
            isOptionEqualToValue={(option, value) => option.id === value.id}
            // The server takes at most NOTIFICATION_LIMITS.maxRecipients per mail.
            getOptionDisabled={(option) =>
              field.value.length >= NOTIFICATION_LIMITS.maxRecipients && !field.value.includes(option.id)
            }
            renderOption={({ key, ...props }, user) => (
              <li key={key} {...props}>
                <span>
                  {nameOf(user)}
                  <Typography component="span" variant="body2" color="text.secondary">
                    {` · ${user.email}`}
                  </Typography>
                </span>
              </li>
            )}
            noOptionsText="No teammates yet: an owner invites them in Users"
            renderInput={(params) => (
              <TextField
                {...params}
                label="Teammates"
                inputRef={field.ref}
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message}
              />
            )}
          />
        )}
      />
      <TextInput label="Subject" {...fieldProps(form, 'subject')} />
      <TextInput label="Message" multiline minRows={4} maxRows={10} {...fieldProps(form, 'message')} />
    </FormDialog>
  );
}
