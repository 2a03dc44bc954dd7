import type { ChatMessage } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { handoffStateOf, mayAskForPerson } from './handoff.js';

const notice = (to: NonNullable<ChatMessage['handoff']>['to']): Pick<ChatMessage, 'handoff'> => ({
  handoff: { from: 'bot', to, reason: 'visitor_asked' },
});
const plain: Pick<ChatMessage, 'handoff'> = { handoff: null };

describe('the hand-off state a chat shows', () => {
  it('follows the last notice, and lets the visitor ask for a person only when none is coming or here', () => {
    expect(handoffStateOf([plain])).toBe('bot');
    expect(handoffStateOf([plain, notice('human_requested'), plain])).toBe('human_requested');
    expect(handoffStateOf([notice('human'), notice('bot')])).toBe('bot');
    expect(mayAskForPerson('after_miss', [plain])).toBe(true);
    expect(mayAskForPerson('always', [notice('human_requested')])).toBe(false);
    expect(mayAskForPerson('always', [notice('human')])).toBe(false);
    expect(mayAskForPerson('always', [notice('closed')])).toBe(true);
    expect(mayAskForPerson('never', [plain])).toBe(false);
  });
});
