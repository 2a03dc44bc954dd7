import { VISITOR_LANGUAGES, WIDGET_TEXTS } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { asksForHuman } from './intent.js';

describe('asksForHuman', () => {
  it('reads the "Talk to a person" button\'s own words, typed, as asking for a person, in every language', () => {
    for (const language of VISITOR_LANGUAGES) {
      const title = WIDGET_TEXTS[language].person;
      expect(asksForHuman(title), `${language}: ${title}`).toBe(true);
    }
    // "tal" alone is no Danish request: Spanish "qué tal", a number.
    expect(asksForHuman('¿Qué tal la habitación para una persona?')).toBe(false);
  });

  it('recognises a request for a person in everyday words', () => {
    for (const text of [
      'Can I talk to a human?',
      'human',
      'Live agent!',
      'I want to speak to someone from your team',
      'please connect me with a real person',
      'I need a human',
      'operator please',
      'Can I chat with an agent',
    ])
      expect(asksForHuman(text), text).toBe(true);
  });

  it('leaves questions that merely mention people to the bot', () => {
    for (const text of [
      'Do you ship to Canada?',
      'How many people work at the shop?',
      'Is the human resources page online?',
      'What does a travel agent charge?',
      'Which person signs the delivery?',
    ])
      expect(asksForHuman(text), text).toBe(false);
  });

  it('recognises the request in the other languages whose sites Parley reads', () => {
    for (const text of [
      'quiero hablar con una persona',
      '¿Puedo hablar con alguien del equipo?',
      'Je voudrais parler à un conseiller',
      'Kann ich mit einem Mitarbeiter sprechen?',
      'posso parlare con un operatore?',
      'quero falar com um atendente',
      'Kan ik met een medewerker praten?',
      'persona, por favor',
      'Kan jeg tale med et menneske?',
      'kan jag få prata med en människa?',
      'Kan jeg snakke med en ansatt?',
      'voinko puhua ihmisen kanssa?',
      'можно поговорить с оператором?',
      'живой человек пожалуйста',
      'Beszélhetnék egy ügyintézővel?',
      'bir temsilciyle görüşmek istiyorum',
      'müşteri temsilcisi lütfen',
    ])
      expect(asksForHuman(text), text).toBe(true);
    for (const text of [
      '¿Cuánto cuesta la paella?',
      'Sprechen Sie Englisch?',
      'Combien de personnes par chambre ?',
      'Hur många personer får plats i stugan?',
      'сколько человек помещается в номер?',
      'Kaç kişilik odalarınız var?',
      'Hány ember fér el az asztalnál?',
    ])
      expect(asksForHuman(text), text).toBe(false);
  });
});
