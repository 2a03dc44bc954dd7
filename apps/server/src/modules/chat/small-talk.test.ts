import { describe, expect, it } from 'vitest';
import { answerToOffer, smallTalkOf } from './small-talk.js';

describe('smallTalkOf', () => {
  it('reads greetings, thanks, goodbyes and acknowledgements in everyday spellings', () => {
    const cases: [string, ReturnType<typeof smallTalkOf>][] = [
      ['hi', 'greeting'],
      ['Hello there!', 'greeting'],
      ['hey 👋', 'greeting'],
      ['Good morning', 'greeting'],
      ['hi, how are you?', 'wellbeing'],
      ["what's up", 'wellbeing'],
      ['Can you help me?', 'opener'],
      ['hi, I have a question', 'opener'],
      ['thanks!', 'thanks'],
      ['Thank you so much 🙏', 'thanks'],
      ['ok thanks for your help', 'thanks'],
      ['great, that was helpful', 'thanks'],
      ['ty', 'thanks'],
      ['bye', 'goodbye'],
      ['thanks, bye!', 'goodbye'],
      ['Have a nice day', 'goodbye'],
      ['ok', 'acknowledgement'],
      ['Got it.', 'acknowledgement'],
      ['alright, sounds good', 'acknowledgement'],
      ['👍', 'acknowledgement'],
    ];
    for (const [text, kind] of cases) expect(smallTalkOf(text), text).toBe(kind);
  });

  it("reads the bot's own name as part of a greeting", () => {
    expect(smallTalkOf('Hi Crumb helper!', 'Crumb helper')).toBe('greeting');
    expect(smallTalkOf('Hi Crumb helper!')).toBeNull();
  });

  it('leaves every message that asks or says anything more to the sources', () => {
    for (const text of [
      'hi, are you open on Sunday?',
      'thanks, and how much is delivery?',
      'ok so what does a cake cost',
      'Do you ship to Canada?',
      'help with my order',
      'thanks for the help with my order',
      'evening?',
      'is that ok',
      'yes',
      'no',
      'great cakes, do you deliver them?',
      'hello hello hello hello hello hello hello hello hello',
      '',
      '🎂',
    ])
      expect(smallTalkOf(text), text).toBeNull();
  });
});

describe('answerToOffer', () => {
  it('reads a yes or a no to an offered person, and nothing else', () => {
    for (const text of ['yes', 'Yes please!', 'yeah sure', 'ok', 'please', "I'd like that", 'y'])
      expect(answerToOffer(text), text).toBe('yes');
    for (const text of ['no', 'No thanks.', 'nope', 'not now', "I'm good"])
      expect(answerToOffer(text), text).toBe('no');
    for (const text of ['yes no', 'yes, do you ship to Canada?', 'thanks', 'hello', ''])
      expect(answerToOffer(text), text).toBeNull();
  });
});
