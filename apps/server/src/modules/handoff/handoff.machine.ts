import {
  type HandoffReason,
  type HandoffState,
  type ReplyWindow,
  SOCIAL_TEXTS,
  WHATSAPP_TEXTS,
} from '@parley/contracts';

/**
 * The hand-off state machine of a conversation (issue 15), shared by every channel:
 *
 *   bot ──visitor asks──▶ human_requested ──agent takes over──▶ human ──hands back / away──▶ bot
 *    ▲                         │ no agent in time ──────────────────────────────────────────▲
 *    └──── visitor writes / agent reopens ── closed ◀── agent closes / idle ── (any open state)
 *
 * Each reason names the one transition it may cause and the states it may leave; anything else is
 * refused, so a stale click (taking over a conversation already closed by a colleague...) changes
 * nothing.
 */
export const TRANSITIONS: Record<HandoffReason, { from: readonly HandoffState[]; to: HandoffState }> = {
  visitor_asked: { from: ['bot'], to: 'human_requested' },
  low_confidence: { from: ['bot'], to: 'human_requested' },
  agent_took_over: { from: ['bot', 'human_requested', 'closed'], to: 'human' },
  agent_handed_back: { from: ['human'], to: 'bot' },
  agent_away: { from: ['human'], to: 'bot' },
  no_agent_answered: { from: ['human_requested'], to: 'bot' },
  agent_closed: { from: ['bot', 'human_requested', 'human'], to: 'closed' },
  idle: { from: ['bot', 'human_requested', 'human'], to: 'closed' },
  visitor_wrote: { from: ['closed'], to: 'bot' },
  agent_reopened: { from: ['closed'], to: 'bot' },
};

/** The state `reason` leads to from `state`, or null when that transition is not allowed. */
export function next(state: HandoffState, reason: HandoffReason): HandoffState | null {
  const transition = TRANSITIONS[reason];
  return transition.from.includes(state) ? transition.to : null;
}

/** Who caused a transition. */
export type HandoffActor = { kind: 'visitor' } | { kind: 'agent'; userId: number } | { kind: 'system' };

/**
 * A channel's rules for agents' replies: Meta's 24-hour reply window (7 days with the HUMAN_AGENT
 * tag) for Instagram and Messenger; WhatsApp's 24-hour customer-service window plugs in here too.
 * The web chat has no window.
 */
export type ChannelPolicy = {
  /** Whether and how an agent may write to the user now, given when the user last wrote. */
  window(lastUserMessageAt: Date | null, now: Date): ReplyWindow;
};

const HOUR_MS = 3_600_000;
const ALWAYS: ChannelPolicy = { window: () => ({ state: 'open', until: null, reason: null }) };

/** Meta's Messenger Platform policy (also Instagram messaging): 24 h free, then 7 days tagged. */
const META: ChannelPolicy = {
  window(lastUserMessageAt, now) {
    const since = lastUserMessageAt?.getTime() ?? Number.NEGATIVE_INFINITY;
    const free = since + 24 * HOUR_MS;
    const tagged = since + 7 * 24 * HOUR_MS;
    if (now.getTime() < free) return { state: 'open', until: new Date(free).toISOString(), reason: null };
    if (now.getTime() < tagged)
      return { state: 'tagged', until: new Date(tagged).toISOString(), reason: SOCIAL_TEXTS.windowTagged };
    return { state: 'closed', until: null, reason: SOCIAL_TEXTS.windowClosed };
  },
};

/** WhatsApp's customer-service window: free-form for 24 h, then approved templates only. */
const WHATSAPP: ChannelPolicy = {
  window(lastUserMessageAt, now) {
    const free = (lastUserMessageAt?.getTime() ?? Number.NEGATIVE_INFINITY) + 24 * HOUR_MS;
    if (now.getTime() < free) return { state: 'open', until: new Date(free).toISOString(), reason: null };
    return { state: 'closed', until: null, reason: WHATSAPP_TEXTS.windowClosed };
  },
};

const POLICIES: Record<string, ChannelPolicy> = {
  bot: ALWAYS,
  instagram: META,
  messenger: META,
  whatsapp: WHATSAPP,
};

/** A channel's policy; a channel without one may always be answered. */
export function policyOf(channel: string): ChannelPolicy {
  return POLICIES[channel] ?? ALWAYS;
}

/** Whether a window limits agents' replies on the channel (Meta's, WhatsApp's; not the web chat). */
export function hasReplyWindow(channel: string): boolean {
  return policyOf(channel) !== ALWAYS;
}
