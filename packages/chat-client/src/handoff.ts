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

/** Said under an answer the visitor rated down, beside the button that asks for a person. */
export const BAD_ANSWER_OFFER = "Sorry that didn't help. Someone from our team can answer instead.";

type OfferView = Pick<ChatMessage, 'seq' | 'message_type' | 'message' | 'actions' | 'answer_mode'>;

/**
 * The contact form the hand-off offered (nobody could come, issue 31 item 5) while the visitor has
 * not sent it since: the offering message's seq and the question to pre-fill (the visitor's last
 * message before the offer that was not a request for a person), or null when no form is due.
 */
export function contactFormDue(
  messages: readonly OfferView[],
): { offeredAt: number; question: string } | null {
  let offer = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.answer_mode === 'contact') return null;
    if (message.actions.some((action) => action.type === 'contact_form')) {
      offer = i;
      break;
    }
  }
  if (offer < 0) return null;
  const question = messages
    .slice(0, offer)
    .filter((m) => m.message_type === 'user' && !ASKS_FOR_PERSON.test(m.message))
    .at(-1);
  return { offeredAt: messages[offer]!.seq, question: question?.message ?? '' };
}

/** A visitor line asking for a person: not the question to pre-fill. */
const ASKS_FOR_PERSON = /\b(human|person|agent|someone|somebody|representative|operator)\b/i;
