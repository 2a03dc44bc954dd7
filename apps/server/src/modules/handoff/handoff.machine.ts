import type { HandoffReason, HandoffState } from '@parley/contracts';

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
 * A channel's rules for agents' replies, filled in by the channel issues: Meta's 24-hour reply
 * window (7 days with the human-agent tag) for Instagram and Messenger, WhatsApp's 24-hour
 * customer-service window. The web chat has no window.
 */
export type ChannelPolicy = {
  /** Whether an agent may still write to the visitor, given when the visitor last wrote. */
  agentMayReply(lastVisitorMessageAt: Date | null, now: Date): boolean;
};

const ALWAYS: ChannelPolicy = { agentMayReply: () => true };

/** Per channel; the channel issues add theirs (Instagram, Messenger, WhatsApp) here. */
const POLICIES: Record<string, ChannelPolicy> = { bot: ALWAYS };

/** A channel's policy; a channel without one may always be answered. */
export function policyOf(channel: string): ChannelPolicy {
  return POLICIES[channel] ?? ALWAYS;
}
