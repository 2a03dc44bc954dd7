import MailOutline from '@mui/icons-material/MailOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { safeUrl } from '@parley/chat-client';
import type {
  ConversationWithMessages,
  HandoffState,
  InboxConversation,
  InboxFilter,
} from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { EmailTeammateDialog } from '../../notifications/components/EmailTeammateDialog';
import { useAbility } from '../../permissions/hooks/useAbility';
import {
  useAddNoteMutation,
  useAssignMutation,
  useCloseConversationMutation,
  useHandoffEventsQuery,
  useInboxQuery,
  useNotesQuery,
  useTeammatesQuery,
} from '../api';
import { CHANNEL_LABELS } from './ChannelIcon';
import { eventLine } from './handoff-texts';

type Props = {
  conversation: ConversationWithMessages;
  /** What the inbox list knows of it (visitor, page, assignee); absent until it is listed. */
  listed: InboxConversation | undefined;
  tenantId: number;
  /** What the server answered an assignment: the page keeps it as the listed conversation. */
  onListed?: (conversation: InboxConversation) => void;
};

const when = (iso: string) => new Date(iso).toLocaleString();
/** "spanish" → "Spanish": the console is English. */
const languageName = (language: string) => language.charAt(0).toUpperCase() + language.slice(1);

const FILTER_OF: Record<HandoffState, InboxFilter> = {
  human_requested: 'needs_human',
  human: 'with_agent',
  bot: 'bot',
  closed: 'closed',
};

const STATE_LABELS: Record<HandoffState, string> = {
  bot: 'With the bot',
  human_requested: 'Needs a person',
  human: 'With an agent',
  closed: 'Closed',
};

/**
 * Who the visitor is and what agents do around the conversation: name, email, channel, the page they
 * were on, first seen and last message; close or reopen; assign to a teammate; internal notes, which
 * the visitor never sees (they are stored apart from the messages).
 */
export function ConversationDetails({ conversation, listed: given, tenantId, onListed }: Props) {
  // Opened from the bot panes: found in the list of the filter its state belongs to.
  const fallback = useInboxQuery(
    { tenantId, filter: FILTER_OF[conversation.handoff_state], search: '', includeTests: true },
    { skip: Boolean(given) },
  );
  const listed = given ?? fallback.data?.conversations.find((c) => c.conversation_id === conversation.id);
  const [note, setNote] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [close, closing] = useCloseConversationMutation();
  const [assign] = useAssignMutation();
  const [addNote, adding] = useAddNoteMutation();
  const notes = useNotesQuery(conversation.id);
  const [history, setHistory] = useState(false);
  const events = useHandoffEventsQuery(conversation.id, { skip: !history });
  const teammates = useTeammatesQuery(tenantId);
  // Mailing teammates about the conversation is for those who work the inbox (POST /notification/send-email).
  const canEmail = useAbility().can('write', 'Inbox');
  const [emailing, setEmailing] = useState(false);
  const visitor = listed?.visitor_name ?? listed?.visitor_email ?? 'Anonymous visitor';
  const closed = conversation.handoff_state === 'closed';
  // Messages that arrived live are newer than the loaded conversation's own time.
  const newest = conversation.messages.at(-1)?.timestamp;
  const lastMessageAt =
    newest && Date.parse(newest) > Date.parse(conversation.last_message_at)
      ? newest
      : conversation.last_message_at;
  const page = listed?.page_url ? safeUrl(listed.page_url) : '';
  const outcome = (result: { error?: unknown }) =>
    setFailure(result.error ? serverDetail(result.error) : null);

  return (
    <Box sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }} data-testid="conversation-details">
      <Stack direction="row" spacing={1.5} useFlexGap alignItems="center" sx={{ flexWrap: 'wrap' }}>
        <Typography variant="body2" fontWeight={600} data-testid="visitor-name">
          {visitor}
        </Typography>
        {listed?.visitor_name && listed.visitor_email ? (
          <Typography variant="body2">{listed.visitor_email}</Typography>
        ) : null}
        <Chip
          size="small"
          variant="outlined"
          label={CHANNEL_LABELS[conversation.channel] ?? conversation.channel}
          data-testid="conversation-channel"
        />
        <Chip
          size="small"
          color={closed ? 'default' : conversation.handoff_state === 'human_requested' ? 'warning' : 'info'}
          label={STATE_LABELS[conversation.handoff_state]}
          data-testid="handoff-state"
        />
        {conversation.visitor_language && conversation.visitor_language !== 'english' ? (
          <Chip
            size="small"
            variant="outlined"
            label={`Speaks ${languageName(conversation.visitor_language)}`}
            title="The bot and its notices speak to this visitor in this language: reply in it too."
            data-testid="visitor-language"
          />
        ) : null}
        {page ? (
          <Link href={page} target="_blank" rel="noopener noreferrer" variant="body2">
            Page they were on
          </Link>
        ) : null}
      </Stack>
      <Typography variant="caption" color="text.secondary" component="p" data-testid="conversation-times">
        First seen {when(conversation.created_at)} · last message {when(lastMessageAt)}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap alignItems="center" sx={{ flexWrap: 'wrap', mt: 1 }}>
        <TextField
          select
          size="small"
          label="Assign to"
          value={listed?.assignee_id ?? ''}
          onChange={(event) =>
            void assign({
              id: conversation.id,
              userId: event.target.value === '' ? null : Number(event.target.value),
            }).then((result) => {
              outcome(result);
              if (result.data) onListed?.(result.data);
            })
          }
          sx={{ width: 220 }}
        >
          <MenuItem value="">Nobody</MenuItem>
          {(teammates.data ?? []).map((user) => (
            <MenuItem key={user.id} value={user.id}>
              {`${user.first_name} ${user.last_name}`.trim() || user.email}
            </MenuItem>
          ))}
        </TextField>
        <Button size="small" onClick={() => setHistory((open) => !open)} aria-expanded={history}>
          History
        </Button>
        <Button
          size="small"
          variant="outlined"
          disabled={closing.isLoading}
          onClick={() => void close({ id: conversation.id, reopen: closed }).then(outcome)}
        >
          {closed ? 'Reopen' : 'Close'}
        </Button>
        {canEmail ? (
          <Button size="small" startIcon={<MailOutline />} onClick={() => setEmailing(true)}>
            Email a teammate
          </Button>
        ) : null}
      </Stack>
      {canEmail && emailing ? (
        <EmailTeammateDialog
          conversation={{ id: conversation.id, botId: conversation.bot_id, visitor }}
          tenantId={tenantId}
          onClose={() => setEmailing(false)}
        />
      ) : null}
      {failure ? (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {failure}
        </Alert>
      ) : null}
      {history ? (
        <Box component="ol" aria-label="Hand-off history" sx={{ m: 0, mt: 1, pl: 2.5 }}>
          {events.data?.length === 0 ? (
            <Typography component="li" variant="caption" color="text.secondary">
              Always with the bot so far.
            </Typography>
          ) : null}
          {(events.data ?? []).map((item) => (
            <Typography key={item.id} component="li" variant="caption" data-testid="handoff-event">
              {when(item.created_at)}: {eventLine(item)}
            </Typography>
          ))}
        </Box>
      ) : null}
      <Box
        sx={{
          mt: 1,
          p: 1,
          borderRadius: 1,
          bgcolor: (theme) => alpha(theme.palette.warning.main, 0.12),
          border: 1,
          borderColor: 'warning.light',
        }}
        aria-label="Internal notes"
        role="region"
      >
        <Typography variant="caption" fontWeight={600}>
          Internal notes — not visible to the visitor
        </Typography>
        <Box sx={{ maxHeight: 120, overflowY: 'auto' }}>
          {(notes.data ?? []).map((item) => (
            <Typography
              key={item.id}
              variant="body2"
              data-testid="internal-note"
              sx={{ whiteSpace: 'pre-wrap' }}
            >
              <strong>{item.author_name}</strong> ({when(item.created_at)}): {item.body}
            </Typography>
          ))}
        </Box>
        <Stack
          component="form"
          direction="row"
          spacing={1}
          sx={{ mt: 0.5 }}
          onSubmit={(event) => {
            event.preventDefault();
            void addNote({ id: conversation.id, body: note }).then((result) => {
              outcome(result);
              if (!('error' in result)) setNote('');
            });
          }}
        >
          <TextField
            size="small"
            fullWidth
            label="Note"
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
          <Button type="submit" size="small" variant="contained" disabled={adding.isLoading}>
            Add note
          </Button>
        </Stack>
      </Box>
    </Box>
  );
}
