import type { ChatMessage, HandoffState, HumanButtonMode } from '@parley/contracts';

/** Who answers the conversation now, as its last hand-off notice says ('bot' before any). */
export function handoffStateOf(messages: readonly Pick<ChatMessage, 'handoff'>[]): HandoffState {
  for (let i = messages.length - 1; i >= 0; i--) {
    const change = messages[i]!.handoff;
    if (change) return change.to;
  }
  return 'bot';
}

/**
 * Whether the visitor may ask for a person now: the owner allows it (human_button not 'never') and
 * nobody is already coming or here.
 */
export function mayAskForPerson(mode: HumanButtonMode, messages: readonly Pick<ChatMessage, 'handoff'>[]) {
  const state = handoffStateOf(messages);
  return mode !== 'never' && state !== 'human_requested' && state !== 'human';
}
