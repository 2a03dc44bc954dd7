import type { MarkdownOptions } from '@parley/chat-client/markdown';
import { BOT, fillText, type PublicBot } from '@parley/contracts';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { palette } from '../colour';
import { imageHosts, type WidgetConfig } from '../config';
import { type SessionState, VisitorSession } from '../session';
import { botStore } from '../storage';
import { directionOf, TextsContext, textsOf } from '../texts';
import { fitToPhone, onPhone } from '../viewport';
import { useUnread } from './arrivals';
import { ChatIcon, CloseIcon } from './icons';
import { closeOnEscape, type LeadState, Panel } from './Panel';

/** How the page's script (window.ParleyWidget) opens and closes a mounted widget. */
export type WidgetControls = { setOpen: ((open: boolean | ((was: boolean) => boolean)) => void) | null };

type Props = { config: WidgetConfig; bot: PublicBot; controls: WidgetControls };

function useSessionState(session: VisitorSession): SessionState {
  const [state, setState] = useState(session.getState());
  useEffect(() => session.subscribe(setState), [session]);
  return state;
}

/**
 * The widget: a launcher in the bot's brand colour and the chat panel it opens. The socket connects
 * when the chat first opens (or at once when it was left open, or `data-open="true"`).
 */
export function App({ config, bot, controls }: Props) {
  const { apiBase, uuid } = config;
  const store = useMemo(() => botStore(uuid), [uuid]);
  const t = useMemo(() => textsOf(bot), [bot]);
  const session = useMemo(
    () => new VisitorSession({ apiBase, uuid, botId: bot.bot_id, store, texts: t, language: bot.language }),
    [apiBase, uuid, bot.bot_id, store, t, bot.language],
  );
  const state = useSessionState(session);
  // data-open does not cover a phone's whole screen with the chat before the visitor sees the site.
  const [open, setOpen] = useState(() => (config.openAtStart && !onPhone()) || store.get('open') === 'true');
  const [lead, setLead] = useState<LeadState>(() => {
    const kept = store.get('lead');
    return kept === 'sent' || kept === 'dismissed' ? kept : 'form';
  });
  const [leadSentAfter, setLeadSentAfter] = useState<number | null>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const dialog = useRef<HTMLElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(open);
  const markdown = useMemo<MarkdownOptions>(
    () => ({ imageHosts: imageHosts(apiBase), baseUrl: apiBase }),
    [apiBase],
  );
  const unread = useUnread(state.messages, open);
  const colours = palette(bot.brand_color || BOT.defaultBrandColor);

  useEffect(() => () => session.dispose(), [session]);
  useEffect(() => {
    controls.setOpen = setOpen;
    return () => {
      controls.setOpen = null;
    };
  }, [controls]);
  useEffect(() => {
    if (open) session.start();
    store.set('open', String(open));
    // Focus follows the chat: into the composer when it opens, back to the launcher when it closes.
    // On a phone the chat itself takes it: the composer would raise the keyboard over the welcome.
    if (open) (onPhone() ? dialog : input).current?.focus();
    else if (wasOpen.current) launcher.current?.focus();
    wasOpen.current = open;
  }, [open, session, store]);
  useEffect(() => (open && root.current ? fitToPhone(root.current) : undefined), [open]);

  const finishLead = (next: 'sent' | 'dismissed') => {
    store.set('lead', next);
    setLead(next);
    if (next === 'sent') setLeadSentAfter(state.messages.at(-1)?.seq ?? 0);
  };

  return (
    <TextsContext.Provider value={t}>
      <div
        ref={root}
        class="root"
        lang={t.lang}
        // Set, not inherited: a right-to-left page would otherwise turn the widget's own words around.
        dir={directionOf(t.lang)}
        style={{
          '--brand': colours.brand,
          '--on-brand': colours.onBrand,
          '--accent': colours.accent,
          '--link': '#1d4ed8',
        }}
      >
        <Panel
          apiBase={apiBase}
          bot={bot}
          state={state}
          open={open}
          markdown={markdown}
          inputRef={input}
          dialogRef={dialog}
          lead={lead}
          leadSentAfter={leadSentAfter}
          onSend={(text) => session.send(text)}
          onLead={async (fields) => {
            const failed = await session.submitLead(fields);
            if (failed === null) finishLead('sent');
            return failed;
          }}
          onLeadDismiss={() => finishLead('dismissed')}
          onContact={(fields) => session.leaveContact(fields)}
          onNewChat={() => {
            session.newChat();
            setLeadSentAfter(null);
            input.current?.focus();
          }}
          onClose={() => setOpen(false)}
          onRequestHuman={() => session.requestHuman()}
          onRate={(messageId, rating) => session.rate(messageId, rating)}
          onBookingClick={() => session.bookingClicked()}
        />
        <button
          ref={launcher}
          class={`launcher${open ? ' open' : ''}`}
          type="button"
          aria-label={
            open ? t.closeChat : unread ? fillText(t.openChatUnread, { count: unread }) : t.openChat
          }
          aria-expanded={open}
          aria-controls="parley-chat-panel"
          onClick={() => setOpen((was) => !was)}
          onKeyDown={open ? closeOnEscape(() => setOpen(false)) : undefined}
        >
          {open ? <CloseIcon /> : <ChatIcon />}
          {unread && !open ? (
            <span class="badge" aria-hidden="true" data-testid="unread">
              {unread > 9 ? '9+' : unread}
            </span>
          ) : null}
        </button>
      </div>
    </TextsContext.Provider>
  );
}
