import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { safeUrl } from '@parley/chat-client';
import { type ChatMessage, HELPDESK_TEXTS, type HelpdeskConversation } from '@parley/contracts';
import { type ReactNode, type UIEvent, useEffect, useLayoutEffect, useRef } from 'react';
import { Composer } from '../../chat/components/Composer';
import { MessageList } from '../../chat/components/MessageList';
import type { ChatFrame } from '../../chat/frames';
import { ConversationTemplate } from '../../whatsapp/components/ConversationTemplate';
import { LOAD_EARLIER_PX } from '../thread-pages';
import { ChannelIcon } from './ChannelIcon';
import { holderLabel } from './ConversationPane';
import { PaneTitle } from './PaneTitle';

type Props = {
  title: string;
  channel: string;
  conversation: HelpdeskConversation | undefined;
  loading: boolean;
  userId: number;
  brandColor: string;
  welcome: string;
  frames: readonly ChatFrame[];
  /** Why the last take-over failed (the server's detail: who holds it). */
  conflict: string | null;
  controlBusy: boolean;
  replyBusy: boolean;
  onTakeOver: () => void;
  onHandBack: () => void;
  /** Resolves false when the reply did not go (the composer then gives the text back). */
  onReply: (text: string) => Promise<boolean>;
  onDelete: () => void;
  /** Who the visitor is, notes, assignment, close and reopen (above the messages). */
  details?: ReactNode;
  /** The thread holds its newest messages: the page before the oldest one held is asked for. */
  onLoadEarlier?: () => void;
  loadingEarlier?: boolean;
};

/**
 * The open conversation: its messages with sources and attachments (the chat's own components;
 * agent replies labelled "Agent"), frames in their colours, take over / hand back, and the reply
 * box, usable only while this agent holds the conversation.
 */
export function ThreadPane({
  title,
  channel,
  conversation,
  loading,
  userId,
  brandColor,
  welcome,
  frames,
  conflict,
  controlBusy,
  replyBusy,
  onTakeOver,
  onHandBack,
  onReply,
  onDelete,
  details,
  onLoadEarlier,
  loadingEarlier = false,
}: Props) {
  if (!conversation) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', height: '100%', minHeight: 240, p: 3 }}>
        <Typography color="text.secondary">{loading ? 'Loading…' : 'Select a conversation'}</Typography>
      </Box>
    );
  }
  // Instagram and Messenger: Meta's reply window (open, tagged after 24 h, closed after 7 days).
  const replyWindow = conversation.reply_window ?? null;
  const human = conversation.is_helpdesk_in_control;
  const mine = human && conversation.admin_id === userId;
  const attachments = conversation.messages.flatMap((m) => m.attachments.map((a) => ({ ...a, seq: m.seq })));
  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}
      data-testid="inbox-thread"
    >
      <PaneTitle
        title={
          <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
            <ChannelIcon channel={channel} fontSize="small" />
            <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
              {title}
            </Box>
          </Box>
        }
      >
        <Chip
          size="small"
          label={mine ? 'You' : holderLabel(conversation)}
          color={human ? 'success' : 'default'}
          data-testid="thread-holder"
        />
        {mine ? (
          <Button size="small" variant="outlined" onClick={onHandBack} disabled={controlBusy}>
            Hand back
          </Button>
        ) : (
          <Button size="small" variant="contained" onClick={onTakeOver} disabled={controlBusy}>
            Take over
          </Button>
        )}
        <Tooltip title="Delete conversation">
          <IconButton size="small" aria-label="Delete this conversation" onClick={onDelete}>
            <DeleteOutline fontSize="small" />
          </IconButton>
        </Tooltip>
      </PaneTitle>
      {conflict ? (
        <Alert severity="warning" sx={{ m: 1 }} data-testid="control-conflict">
          {conflict}
        </Alert>
      ) : null}
      {details}
      <PagedThread conversation={conversation} loadingEarlier={loadingEarlier} onLoadEarlier={onLoadEarlier}>
        <MessageList
          messages={conversation.messages}
          // The server seeds every conversation with the bot's greeting (seq 1), which takes this place.
          welcome={welcome}
          brandColor={brandColor}
          draft={null}
          thinking={false}
          frames={frames}
          showTimes
          explainHeldBack
          earlier={
            conversation.has_earlier ? (
              <EarlierRow loading={loadingEarlier} onLoad={onLoadEarlier} />
            ) : undefined
          }
        />
      </PagedThread>
      {attachments.length > 0 ? (
        <Stack
          direction="row"
          spacing={1}
          sx={{ px: 2, py: 1, flexWrap: 'wrap', borderTop: 1, borderColor: 'divider' }}
        >
          {attachments.map((a) => {
            const href = safeUrl(new URL(a.url, window.location.origin).toString());
            return (
              <Chip
                key={`${a.seq}:${a.url}`}
                icon={<AttachFile />}
                size="small"
                label={
                  href ? (
                    <Link href={href} target="_blank" rel="noopener noreferrer" underline="hover">
                      {a.name}
                    </Link>
                  ) : (
                    a.name
                  )
                }
              />
            );
          })}
        </Stack>
      ) : null}
      <DeliveryFailures messages={conversation.messages} />
      {mine ? (
        <>
          {replyWindow?.state === 'closed' ? (
            <Alert severity="info" sx={{ mx: 1, mt: 1 }} data-testid="reply-window">
              {replyWindow.reason}
            </Alert>
          ) : replyWindow?.state === 'tagged' ? (
            <Typography
              variant="caption"
              color="text.secondary"
              sx={{ px: 2, pt: 1 }}
              data-testid="reply-window"
            >
              {replyWindow.reason}
            </Typography>
          ) : null}
          {conversation.channel === 'whatsapp' && replyWindow?.state === 'closed' ? (
            <ConversationTemplate conversation={conversation} />
          ) : (
            <Composer
              onSend={onReply}
              disabled={replyBusy || replyWindow?.state === 'closed'}
              placeholder="Reply to the visitor…"
            />
          )}
        </>
      ) : (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider' }}
          data-testid="reply-locked"
        >
          {HELPDESK_TEXTS.notHolding}
        </Typography>
      )}
    </Box>
  );
}

/** Messages the channel refused (a blocked user, a closed window): each with the reason, under the thread. */
function DeliveryFailures({ messages }: { messages: ChatMessage[] }) {
  const failed = messages.filter((m) => m.delivery?.status === 'failed');
  if (failed.length === 0) return null;
  return (
    <Stack spacing={0.5} sx={{ px: 1, pb: 1 }}>
      {failed.map((m) => (
        <Alert key={m.id} severity="error" data-testid="delivery-failed">
          Not delivered: “{m.message.slice(0, 80)}”. {m.delivery?.error}
        </Alert>
      ))}
    </Stack>
  );
}

/** The top of a thread with older messages: loading them, or a button for those who do not scroll. */
function EarlierRow({ loading, onLoad }: { loading: boolean; onLoad?: () => void }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 0.5 }} data-testid="thread-earlier">
      {loading ? (
        <Typography variant="caption" color="text.secondary" role="status">
          Loading earlier messages…
        </Typography>
      ) : (
        <Button size="small" onClick={onLoad} disabled={!onLoad}>
          Load earlier messages
        </Button>
      )}
    </Box>
  );
}

/**
 * Around the message list (its first child is the scroller): near the top, the page before asks for
 * itself; when it arrives above, the scroll position moves by its height, so the message under the
 * agent's eyes stays put. A thread too short to scroll asks at once.
 */
function PagedThread({
  conversation,
  loadingEarlier,
  onLoadEarlier,
  children,
}: {
  conversation: HelpdeskConversation;
  loadingEarlier: boolean;
  onLoadEarlier?: () => void;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  /** The scroller's height and offset from the bottom after the last render or scroll. */
  const fromBottom = useRef<number | null>(null);
  const firstSeq = conversation.messages[0]?.seq ?? 0;
  const shownFirst = useRef({ id: conversation.id, seq: firstSeq });
  const wantsMore = conversation.has_earlier === true && !loadingEarlier && onLoadEarlier !== undefined;
  const scroller = () => box.current?.firstElementChild as HTMLElement | null | undefined;

  useLayoutEffect(() => {
    const el = scroller();
    const before = shownFirst.current;
    shownFirst.current = { id: conversation.id, seq: firstSeq };
    if (!el) return;
    // Older messages arrived above: keep the same distance from the bottom.
    if (before.id === conversation.id && firstSeq < before.seq && fromBottom.current !== null)
      el.scrollTop = el.scrollHeight - fromBottom.current;
    fromBottom.current = el.scrollHeight - el.scrollTop;
  });
  useEffect(() => {
    const el = scroller();
    if (wantsMore && el && el.scrollHeight <= el.clientHeight + LOAD_EARLIER_PX) onLoadEarlier?.();
  });

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.target as HTMLElement;
    if (el !== scroller()) return;
    fromBottom.current = el.scrollHeight - el.scrollTop;
    if (wantsMore && el.scrollTop <= LOAD_EARLIER_PX) onLoadEarlier?.();
  };
  return (
    <Box
      ref={box}
      onScrollCapture={onScroll}
      sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}
      data-testid="thread-scroll"
    >
      {children}
    </Box>
  );
}
