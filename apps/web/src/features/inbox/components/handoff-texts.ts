import type { HandoffEvent, HandoffReason } from '@parley/contracts';

const LINES: Record<HandoffReason, (who: string) => string> = {
  visitor_asked: () => 'The visitor asked for a person',
  low_confidence: () => 'The bot did not know or was not sure; the visitor asked for a person',
  agent_took_over: (who) => `${who} took over`,
  agent_handed_back: (who) => `${who} handed back to the bot`,
  agent_away: () => 'The agent was away too long; back to the bot',
  no_agent_answered: () => 'Nobody took the request in time; back to the bot',
  agent_closed: (who) => `${who} closed the conversation`,
  idle: () => 'Closed after a while without messages',
  visitor_wrote: () => 'The visitor wrote again; reopened',
  agent_reopened: (who) => `${who} reopened the conversation`,
};

/** One line of a conversation's hand-off history: who moved it, and where. */
export function eventLine(event: Pick<HandoffEvent, 'reason' | 'actor' | 'actor_name'>): string {
  const who =
    event.actor_name ??
    (event.actor === 'visitor' ? 'The visitor' : event.actor === 'agent' ? 'An agent' : 'Parley');
  return LINES[event.reason](who);
}
