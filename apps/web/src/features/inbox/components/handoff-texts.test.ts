import { describe, expect, it } from 'vitest';
import { eventLine } from './handoff-texts';

describe('eventLine', () => {
  it('names the agent who moved the conversation, or says what happened by itself', () => {
    expect(eventLine({ reason: 'agent_took_over', actor: 'agent', actor_name: 'Grace Hopper' })).toBe(
      'Grace Hopper took over',
    );
    expect(eventLine({ reason: 'agent_closed', actor: 'agent', actor_name: null })).toBe(
      'An agent closed the conversation',
    );
    expect(eventLine({ reason: 'agent_away', actor: 'system', actor_name: null })).toBe(
      'The agent was away too long; back to the bot',
    );
    expect(eventLine({ reason: 'visitor_asked', actor: 'visitor', actor_name: null })).toBe(
      'The visitor asked for a person',
    );
    expect(eventLine({ reason: 'idle', actor: 'system', actor_name: null })).toBe(
      'Closed after a while without messages',
    );
  });
});
