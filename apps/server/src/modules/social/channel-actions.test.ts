import { type MessageAction, VISITOR_LANGUAGES, WIDGET_TEXTS } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { asksForHuman } from '../handoff/intent.js';
import {
  BUTTON_TITLE_LIMIT,
  buttonRefused,
  buttonTitle,
  INTERACTIVE_BODY_LIMIT,
  outgoingParts,
  PERSON_PAYLOAD,
  personHint,
} from './channel-actions.js';
import { TEXT_LIMIT } from './channel-text.js';
import { GraphError } from './meta.client.js';

const answer = (message: string, actions: MessageAction[]) => ({
  message,
  sources: [],
  metadata: { actions },
});
const PERSON: MessageAction = { type: 'human', title: 'Talk to a person' };
const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(' ');

describe('channel buttons', () => {
  it('fits every language’s "Talk to a person" in a button, said shorter rather than cut', () => {
    for (const language of VISITOR_LANGUAGES) {
      const title = buttonTitle(WIDGET_TEXTS[language].person);
      expect(title.length, `${language}: ${title}`).toBeLessThanOrEqual(BUTTON_TITLE_LIMIT);
      expect(title.length, language).toBeGreaterThan(5);
      expect(title.endsWith('…'), `${language} is said shorter, not cut: ${title}`).toBe(false);
      // Typed back (the button cannot be shown), the short words ask for a person as the long ones do.
      const full = WIDGET_TEXTS[language].person;
      expect(asksForHuman(title), `${language}: ${title}`).toBe(asksForHuman(full));
    }
    expect(buttonTitle('Hablar con una persona')).toBe('Hablar con alguien');
    expect(buttonTitle('Talk to a person')).toBe('Talk to a person');
  });

  it('cuts an unknown long title at a word, with an ellipsis', () => {
    expect(buttonTitle('Speak with somebody from our support team')).toBe('Speak with somebody…');
    expect(buttonTitle('Speak to someone from our team')).toBe('Speak to someone…');
    expect(buttonTitle('Supercalifragilisticexpialidocious')).toBe('Supercalifragilisti…');
    expect(buttonTitle('Supercalifragilisticexpialidocious')).toHaveLength(BUTTON_TITLE_LIMIT);
  });

  it('puts the person button on the last part only, and offers no form', () => {
    const parts = outgoingParts(
      'messenger',
      answer(`${words(500)} Would you like to talk to a person from our team?`, [
        PERSON,
        { type: 'lead_form', title: 'Leave your details' },
        { type: 'contact_form', title: 'Leave your contact details' },
      ]),
    );
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.slice(0, -1).every((part) => part.button === undefined)).toBe(true);
    expect(parts.at(-1)!.button).toEqual({ title: 'Talk to a person', payload: PERSON_PAYLOAD });
    expect(outgoingParts('messenger', answer('Hi', [{ type: 'lead_form', title: 'Form' }]))).toEqual([
      { text: 'Hi' },
    ]);
    expect(outgoingParts('instagram', answer('Hi', []))).toEqual([{ text: 'Hi' }]);
  });

  it('keeps a WhatsApp button’s body within 1,024 characters, losing no word', () => {
    const text = words(300); // ~2,400 characters: one text message, too long for an interactive body
    const plainParts = outgoingParts('whatsapp', answer(text, []));
    expect(plainParts).toEqual([{ text }]);
    const parts = outgoingParts('whatsapp', answer(text, [PERSON]));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.at(-1)!.button).toBeDefined();
    expect(parts.at(-1)!.text.length).toBeLessThanOrEqual(INTERACTIVE_BODY_LIMIT);
    expect(parts.map((part) => part.text).join(' ')).toBe(text);
    // Messenger carries quick replies on any text, so its split does not change.
    expect(outgoingParts('messenger', answer(words(200), [PERSON]))).toHaveLength(1);
  });

  it('falls back to words that say how to ask, unless the answer says it already, never losing the answer', () => {
    const offered =
      "Sorry, I don't know the answer to that. Would you like to talk to a person from our team?";
    expect(outgoingParts('whatsapp', answer(offered, [PERSON]), true)).toEqual([{ text: offered }]);
    const silent = 'Our shop opens at nine.';
    expect(outgoingParts('messenger', answer(silent, [PERSON]), true)).toEqual([
      { text: `${silent}\n\nYou can ask to talk to a person from our team.` },
    ]);
    const spanish = { type: 'human' as const, title: WIDGET_TEXTS.spanish.person };
    expect(personHint('Abrimos a las nueve.', spanish.title)).toBe(
      'Puedes pedir hablar con una persona de nuestro equipo.',
    );
    // The hint itself is a request the chat recognises when typed back.
    expect(asksForHuman('I want to talk to a person from your team')).toBe(true);
    // A last part too full for the hint: the hint follows as a message of its own.
    const full = words(1000).slice(0, TEXT_LIMIT.instagram);
    const parts = outgoingParts('instagram', answer(full, [PERSON]), true);
    expect(parts.at(-1)).toEqual({ text: 'You can ask to talk to a person from our team.' });
    expect(parts.every((part) => part.text.length <= TEXT_LIMIT.instagram && !part.button)).toBe(true);
  });

  it('sends the same parts before the last with or without the button, so a fallback resumes in place', () => {
    const text = `${words(600)} Shall we talk?`;
    const withButton = outgoingParts('whatsapp', answer(text, [PERSON]));
    const plain = outgoingParts('whatsapp', answer(text, [PERSON]), true);
    expect(plain.slice(0, withButton.length - 1)).toEqual(withButton.slice(0, -1));
    expect(plain[withButton.length - 1]!.text.startsWith(withButton.at(-1)!.text)).toBe(true);
  });

  it('goes back to text only when the button itself was refused, not for what text would meet too', () => {
    const withButton = { text: 'Hi', button: { title: 'Talk to a person', payload: PERSON_PAYLOAD } };
    const graph = (code: number, status = 400) => new GraphError('refused', status, code, null);
    expect(buttonRefused(withButton, graph(100))).toBe(true); // invalid parameter
    expect(buttonRefused(withButton, graph(131009))).toBe(true); // WhatsApp: parameter value not valid
    expect(buttonRefused(withButton, graph(131051))).toBe(true); // unsupported message type
    expect(buttonRefused(withButton, graph(551))).toBe(false); // the user is unavailable
    expect(buttonRefused(withButton, graph(613))).toBe(false); // throttled: retried as it was
    expect(buttonRefused(withButton, graph(190, 401))).toBe(false); // a dead token
    expect(buttonRefused(withButton, graph(131047))).toBe(false); // the 24-hour window closed
    expect(buttonRefused(withButton, graph(100, 500))).toBe(false); // Graph failing: retried
    expect(buttonRefused({ text: 'Hi' }, graph(100))).toBe(false);
  });
});
