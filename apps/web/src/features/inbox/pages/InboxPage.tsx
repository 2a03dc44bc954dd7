import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { mergeMessages } from '@parley/chat-client';
import {
  type ChatMessage,
  type GroupedConversation,
  HELPDESK_TEXTS,
  type HelpdeskControlStatus,
  type InboxConversation,
  MESSAGES,
} from '@parley/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'react-redux';
import { useSearchParams } from 'react-router';
import type { PagePreload } from '../../../app/preload';
import { type AppStore, useAppDispatch, useAppSelector } from '../../../app/store';
import { httpStatus, serverDetail } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useWorkingBots } from '../../bots/hooks/useWorkingBots';
import { type ChatFrame, makeFrame } from '../../chat/frames';
import { EmailLogButton } from '../../notifications/components/EmailLogDialog';
import {
  type GroupedArgs,
  inboxApi,
  newChatId,
  useDeleteHelpdeskConversationMutation,
  useGroupedQuery,
  useHelpdeskConversationQuery,
  useLazyHelpdeskEarlierQuery,
  useMarkReadMutation,
  useNewChatMutation,
  useReplyMutation,
  useSetControlMutation,
} from '../api';
import { BotPane, type InboxBot } from '../components/BotPane';
import { ConversationDetails } from '../components/ConversationDetails';
import { ConversationPane, type InboxFilters } from '../components/ConversationPane';
import { FIRST_VIEW, HandoffQueue } from '../components/HandoffQueue';
import { ThreadPane } from '../components/ThreadPane';
import { onInboxEvent, startInboxConnection, unwatchConversation, watchConversation } from '../connection';
import { useInboxReducer } from '../hooks/useInboxReducer';
import {
  botSelected,
  chatStarted,
  conversationRead,
  conversationRemoved,
  conversationSelected,
  groupedLoaded,
  selectInbox,
  viewingSet,
} from '../inbox-slice';

const SEARCH_DEBOUNCE_MS = 300;

/** Between panes: below each other on phones, beside each other from md up. */
const paneBorder = {
  borderStyle: 'solid',
  borderColor: 'divider',
  borderWidth: { xs: '0 0 1px 0', md: '0 1px 0 0' },
} as const;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function isChatMessage(value: unknown): value is ChatMessage {
  return Boolean(value && typeof value === 'object' && 'seq' in value && 'conversation_id' in value);
}

/** The bots with conversations and the hand-off queue's first view start with the route. */
export const preload: PagePreload = ({ dispatch, user }) => {
  const tenantId = user.tenant_id;
  dispatch(inboxApi.util.prefetch('grouped', { tenantId }, {}));
  dispatch(inboxApi.util.prefetch('inbox', { tenantId, ...FIRST_VIEW }, {}));
};

/**
 * The support inbox (console.md sections 3 and 4; issue "Support inbox"): bots with unread flags,
 * most recent first → that bot's conversations → the thread. An agent takes a conversation over,
 * replies while holding it and hands it back; starts a New Chat; deletes one. Everything updates
 * live from the admin channel. On phones the panes stack.
 */
export function InboxPage() {
  const ready = useInboxReducer();
  const store = useStore() as AppStore;
  const user = useAppSelector((state) => state.session.user);
  const userId = user?.id;
  const tenantId = user?.tenant_id;
  // The admin channel opens here and stays open on the other pages (the bell keeps counting).
  useEffect(() => {
    if (ready) startInboxConnection(store, { id: userId, tenant_id: tenantId });
  }, [ready, store, userId, tenantId]);
  if (!ready || !user) return null;
  return <Inbox userId={user.id} tenantId={user.tenant_id} />;
}

function Inbox({ userId, tenantId }: { userId: number; tenantId: number }) {
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const inbox = useAppSelector(selectInbox);
  const [filters, setFilters] = useState<InboxFilters>({ channel: '', holder: '', search: '' });
  const search = useDebounced(filters.search, SEARCH_DEBOUNCE_MS);
  const args: GroupedArgs = {
    tenantId,
    channel: filters.channel || undefined,
    holder: filters.holder || undefined,
    search: search || undefined,
  };
  const grouped = useGroupedQuery(args);
  // An agent reads no bot settings: the bots they work with come from the call their role allows.
  const bots = useWorkingBots();
  const selectedBotId = inbox.selectedBotId;
  const selectedId = inbox.selectedConversationId;
  const thread = useHelpdeskConversationQuery(selectedId ?? 0, {
    skip: selectedId === null,
    refetchOnMountOrArgChange: true,
  });
  const [loadEarlier, earlier] = useLazyHelpdeskEarlierQuery();
  const earlierBusy = useRef(false);
  /** The page before the oldest message held; one request at a time. */
  const showEarlier = useCallback(() => {
    const data = thread.data;
    const oldest = data?.messages[0]?.seq;
    if (!data?.has_earlier || oldest === undefined || earlierBusy.current) return;
    earlierBusy.current = true;
    loadEarlier({ id: data.id, beforeSeq: oldest }).finally(() => {
      earlierBusy.current = false;
    });
  }, [thread.data, loadEarlier]);
  const [frames, setFrames] = useState<Record<number, ChatFrame[]>>({});
  const [conflict, setConflict] = useState<{ id: number; text: string } | null>(null);
  const [toDelete, setToDelete] = useState<GroupedConversation | null>(null);
  const [setControl, control] = useSetControlMutation();
  const [markRead] = useMarkReadMutation();
  const [reply, replying] = useReplyMutation();
  const [newChat, starting] = useNewChatMutation();
  const [deleteConversation, deleting] = useDeleteHelpdeskConversationMutation();

  // The screen is on view: the open conversation is being read.
  useEffect(() => {
    dispatch(viewingSet(true));
    return () => {
      dispatch(viewingSet(false));
    };
  }, [dispatch]);

  useEffect(() => {
    if (grouped.data) dispatch(groupedLoaded(grouped.data));
  }, [grouped.data, dispatch]);

  const inboxBots = useMemo<InboxBot[]>(() => {
    const byId = new Map<number, InboxBot>();
    for (const g of grouped.data ?? []) {
      byId.set(g.bot_id, {
        bot_id: g.bot_id,
        bot_name: g.bot_name,
        unread: false,
        conversations: g.conversations.length,
      });
    }
    for (const b of bots.data ?? []) {
      if (!byId.has(b.bot_id))
        byId.set(b.bot_id, { bot_id: b.bot_id, bot_name: b.bot_name, unread: false, conversations: 0 });
    }
    const rank = (id: number) => {
      const index = inbox.recentBots.indexOf(id);
      return index === -1 ? Number.MAX_SAFE_INTEGER : index;
    };
    return [...byId.values()]
      .map((b) => ({ ...b, unread: inbox.unreadBots[b.bot_id] === true }))
      .sort((a, b) => rank(a.bot_id) - rank(b.bot_id));
  }, [grouped.data, bots.data, inbox.recentBots, inbox.unreadBots]);

  // The most recent bot is selected at first.
  const firstBot = inboxBots[0]?.bot_id;
  useEffect(() => {
    if (selectedBotId === null && firstBot !== undefined) dispatch(botSelected(firstBot));
  }, [selectedBotId, firstBot, dispatch]);

  const conversations = useMemo(() => {
    const group = grouped.data?.find((g) => g.bot_id === selectedBotId);
    return [...(group?.conversations ?? [])].sort((a, b) =>
      b.last_message_at.localeCompare(a.last_message_at),
    );
  }, [grouped.data, selectedBotId]);
  const selected = useMemo(() => {
    for (const g of grouped.data ?? []) {
      const found = g.conversations.find((c) => c.conversation_id === selectedId);
      if (found) return found;
    }
    return undefined;
  }, [grouped.data, selectedId]);
  const bot = bots.data?.find((b) => b.bot_id === (selected?.last_message?.bot_id ?? selectedBotId));

  // Follow the open conversation: after a reconnect, what was missed is asked for.
  // (Once per conversation: the socket itself keeps track of the seqs that arrive afterwards.)
  const loadedId = thread.data?.id;
  const loadedSeq = useRef(0);
  loadedSeq.current = thread.data?.last_seq ?? 0;
  useEffect(() => {
    if (loadedId === undefined) return;
    watchConversation(loadedId, loadedSeq.current);
    return () => unwatchConversation(loadedId);
  }, [loadedId]);

  const addFrame = useCallback((conversationId: number, frame: ChatFrame) => {
    setFrames((all) => ({ ...all, [conversationId]: [...(all[conversationId] ?? []), frame] }));
  }, []);

  // Frames of the admin channel show in their conversation, in the colours of section 8. Control
  // changes need none: their stored system message shows in the thread, in its place.
  useEffect(
    () =>
      onInboxEvent((event) => {
        if (event.type === 'notice' && event.conversationId !== null) {
          addFrame(event.conversationId, makeFrame(event.kind, event.message));
        } else if (event.type === 'error') {
          const id = event.conversationId ?? selectedId;
          if (id !== null) addFrame(id, makeFrame('error', event.error));
          else notify.error(event.error);
        } else if (event.type === 'conversation' && event.deleted && event.conversationId === selectedId) {
          notify.info('This conversation was deleted');
        }
      }),
    [addFrame, selectedId, notify],
  );

  const patchThread = useCallback(
    (id: number, status: Partial<HelpdeskControlStatus>, message?: ChatMessage) => {
      dispatch(
        inboxApi.util.updateQueryData('helpdeskConversation', id, (draft) => {
          if (status.is_helpdesk_in_control !== undefined) {
            draft.is_helpdesk_in_control = status.is_helpdesk_in_control;
            // Taken over: with an agent; handed back: with the bot.
            if (status.is_helpdesk_in_control) draft.handoff_state = 'human';
            else if (draft.handoff_state === 'human') draft.handoff_state = 'bot';
          }
          if (status.admin_id !== undefined) draft.admin_id = status.admin_id;
          if (status.admin_name !== undefined) draft.admin_name = status.admin_name;
          if (message) {
            draft.messages = mergeMessages(draft.messages, [message]);
            draft.last_seq = Math.max(draft.last_seq, message.seq);
          }
        }),
      );
    },
    [dispatch],
  );

  const selectBot = (botId: number) => dispatch(botSelected(botId));

  const openConversation = (conversation: GroupedConversation) =>
    openById(
      conversation.conversation_id,
      grouped.data?.find((g) => g.conversations.includes(conversation))?.bot_id,
    );

  const [listed, setListed] = useState<InboxConversation | undefined>(undefined);
  /** From the hand-off queue: the conversation in the panes, whichever bot it is. */
  const openFromQueue = (conversation: InboxConversation) => {
    setListed(conversation);
    openById(conversation.conversation_id, conversation.bot_id);
  };
  // Each reload of the queue (a socket frame, an assignment) brings the open conversation's newest.
  const refreshListed = useCallback(
    (conversations: readonly InboxConversation[]) => {
      const found = conversations.find((c) => c.conversation_id === selectedId);
      if (found) setListed(found);
    },
    [selectedId],
  );

  const openById = (id: number, botId: number | undefined) => {
    dispatch(conversationSelected({ conversationId: id, botId }));
    setConflict(null);
    markRead(id)
      .unwrap()
      .then(
        () => dispatch(conversationRead(id)),
        () => undefined,
      );
  };

  // A notification's link (/inbox?conversation=1&bot=2) opens that conversation, once.
  const [params, setParams] = useSearchParams();
  const linkedId = Number(params.get('conversation')) || null;
  const linkedBot = Number(params.get('bot')) || undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once per link, not per render of openById
  useEffect(() => {
    if (linkedId === null) return;
    openById(linkedId, linkedBot);
    setParams({}, { replace: true });
  }, [linkedId, linkedBot, setParams]);

  const changeControl = async (take: boolean) => {
    if (selectedId === null) return;
    const id = selectedId;
    try {
      const status = await setControl({
        id,
        body: {
          tenant_id: tenantId,
          is_helpdesk_in_control: take,
          instagram_account_id: selected?.instagram_account_id ?? null,
          messenger_account_id: selected?.messenger_account_id ?? null,
          whatsapp_phone_number_id: selected?.whatsapp_phone_number_id ?? null,
        },
      }).unwrap();
      setConflict(null);
      patchThread(id, status);
      notify.success(
        take ? 'You are now handling this conversation' : 'The bot is handling this conversation again',
      );
    } catch (error) {
      if (httpStatus(error) === 409) {
        const data = (error as { data?: { admin_name?: string | null } }).data;
        const text = serverDetail(error) ?? HELPDESK_TEXTS.heldBy(data?.admin_name ?? 'another agent');
        setConflict({ id, text });
        notify.error(text);
        thread.refetch();
        return;
      }
      notify.error(serverDetail(error) ?? MESSAGES.realtime.issue);
    }
  };

  const sendReply = async (text: string): Promise<boolean> => {
    if (selectedId === null) return false;
    const id = selectedId;
    try {
      const message = await reply({ id, message: text }).unwrap();
      if (isChatMessage(message)) patchThread(id, {}, message);
      return true;
    } catch (error) {
      notify.error(serverDetail(error) ?? MESSAGES.realtime.sendFailed);
      return false;
    }
  };

  const startChat = async () => {
    if (selectedBotId === null) return;
    const botId = selectedBotId;
    try {
      const result = await newChat(botId).unwrap();
      const id = newChatId(result);
      if (id !== null) dispatch(chatStarted({ conversationId: id, botId }));
    } catch (error) {
      notify.error(serverDetail(error) ?? 'Failed to start a new chat');
    }
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    const id = toDelete.conversation_id;
    try {
      await deleteConversation(id).unwrap();
      dispatch(conversationRemoved(id));
      notify.success('Conversation deleted');
    } catch (error) {
      notify.error(serverDetail(error) ?? 'Failed to delete the conversation');
    } finally {
      setToDelete(null);
    }
  };

  const botName = inboxBots.find((b) => b.bot_id === selectedBotId)?.bot_name;
  const conversationOfThread =
    selected ??
    (thread.data
      ? ({ conversation_id: thread.data.id, convName: thread.data.name } as Partial<GroupedConversation>)
      : undefined);
  const failed = inbox.connection === 'failed';

  return (
    <Box>
      <PageHeader
        title="Support Inbox"
        subtitle="Conversations of your bots, live. Take one over to answer it yourself."
        actions={<EmailLogButton tenantId={tenantId} userId={userId} bots={inboxBots} />}
      />
      {failed ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {MESSAGES.realtime.unableToConnect}
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ mb: 2 }}>
        <HandoffQueue
          tenantId={tenantId}
          selectedId={selectedId}
          onOpen={openFromQueue}
          onList={refreshListed}
        />
      </Paper>
      <Paper
        variant="outlined"
        data-testid="inbox-panes"
        data-connection={inbox.connection}
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', md: 'row' },
          height: { md: 'calc(100vh - 240px)' },
          minHeight: { md: 520 },
          overflow: 'hidden',
        }}
      >
        <Box
          sx={{
            width: { md: 220 },
            flexShrink: 0,
            maxHeight: { xs: 260, md: 'none' },
            ...paneBorder,
          }}
        >
          <BotPane
            bots={inboxBots}
            selectedBotId={selectedBotId}
            onSelect={selectBot}
            onNewChat={startChat}
            newChatBusy={starting.isLoading}
          />
        </Box>
        <Box
          sx={{
            width: { md: 340 },
            flexShrink: 0,
            maxHeight: { xs: 420, md: 'none' },
            ...paneBorder,
          }}
        >
          <ConversationPane
            title={botName ? `Conversations · ${botName}` : 'Conversations'}
            conversations={conversations}
            unreadCounts={inbox.unreadCounts}
            selectedId={selectedId}
            loading={grouped.isFetching}
            filters={filters}
            onFilters={setFilters}
            onSelect={openConversation}
            onDelete={setToDelete}
          />
        </Box>
        <Box sx={{ flex: 1, minWidth: 0, minHeight: { xs: 480, md: 0 } }}>
          <ThreadPane
            title={conversationOfThread?.convName ?? ''}
            channel={selected?.channel ?? thread.data?.channel ?? 'bot'}
            conversation={selectedId === null ? undefined : thread.data}
            loading={thread.isFetching}
            userId={userId}
            brandColor={bot?.brand_color || '#1976d2'}
            welcome={bot?.welcome_message ?? ''}
            frames={selectedId === null ? [] : (frames[selectedId] ?? [])}
            conflict={conflict && conflict.id === selectedId ? conflict.text : null}
            controlBusy={control.isLoading}
            replyBusy={replying.isLoading}
            onTakeOver={() => void changeControl(true)}
            onHandBack={() => void changeControl(false)}
            onReply={sendReply}
            onLoadEarlier={showEarlier}
            loadingEarlier={earlier.isFetching}
            details={
              thread.data && selectedId !== null ? (
                <ConversationDetails
                  conversation={thread.data}
                  listed={listed?.conversation_id === selectedId ? listed : undefined}
                  tenantId={tenantId}
                  onListed={setListed}
                />
              ) : null
            }
            onDelete={() => {
              if (selected) setToDelete(selected);
              else if (thread.data)
                setToDelete({
                  conversation_id: thread.data.id,
                  convName: thread.data.name,
                } as GroupedConversation);
            }}
          />
        </Box>
      </Paper>
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete conversation"
        text={`Delete "${toDelete?.convName ?? ''}" and all its messages? This cannot be undone.`}
        confirmLabel="Delete"
        busy={deleting.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setToDelete(null)}
      />
    </Box>
  );
}
