import { describe, expect, it } from 'vitest';
import { BOOKING_INTENT, BOOKING_REQUEST } from './booking-request.js';

describe('a request to book, before the sources are searched', () => {
  it('is a verb of booking with what is booked, or asking how to book', () => {
    for (const question of [
      'Can I book a demo next week?',
      'I would like to book a table for 6 on Saturday',
      'schedule a call with sales',
      'How do I book?',
      'can we reserve a room for two nights',
      'I need to make an appointment',
      'book me in for a check-up please',
      'please call me back',
      'Could I arrange a viewing of the flat?',
      'book a 30 minute consultation',
    ])
      expect(BOOKING_REQUEST.test(question), question).toBe(true);
  });

  it('is not a noun of booking the sources may answer', () => {
    for (const question of [
      'Do you sell the book Dune?',
      'Is there a demo video of the app?',
      'Where is the schedule of trains?',
      'What is your cancellation policy for a booking?',
      'What should I bring to my appointment?',
      'How much to get a service on my bike?',
    ])
      expect(BOOKING_REQUEST.test(question), question).toBe(false);
    // Words of booking all the same: offered where the sources have no answer.
    expect(BOOKING_INTENT.test('What is your cancellation policy for a booking?')).toBe(true);
  });
});

describe('a request to book in the languages the bot speaks', () => {
  it('is a wish or an ask with a verb of booking', () => {
    for (const question of [
      '¿Puedo reservar una mesa para el sábado?',
      'Quisiera pedir una cita con el dentista',
      'Je voudrais réserver une table pour quatre',
      'Comment prendre rendez-vous ?',
      'Kann ich einen Tisch für 4 Personen am Samstag reservieren?',
      'Ich möchte einen Termin vereinbaren',
      'Vorrei prenotare un tavolo per due',
      'Gostaria de marcar uma consulta',
      'Kan ik een tafel reserveren voor vrijdag?',
      'Kan jeg booke et møde?',
      'Hur bokar man en tid?',
      'Voinko varata pöydän?',
      'Хочу забронировать столик на субботу',
      'Szeretnék asztalt foglalni',
      'Randevu almak istiyorum',
    ])
      expect(BOOKING_REQUEST.test(question), question).toBe(true);
  });

  it('is not a question about a booking the sources may answer', () => {
    for (const question of [
      '¿Cómo cancelo mi reserva?',
      'Quelle est votre politique d’annulation des réservations ?',
      'Wie kann ich meine Buchung stornieren?',
      'Haben Sie das Buch Dune?',
      'Quanto costa la prenotazione?',
      'Что взять с собой на приём?',
    ])
      expect(BOOKING_REQUEST.test(question), question).toBe(false);
  });

  it('finds words of booking in any script, whole words only', () => {
    for (const question of [
      'any free slots on friday?',
      '¿Tienen citas el lunes?',
      'Des créneaux libres jeudi ?',
      'Gibt es noch Termine?',
      'Есть бронь на вечер?',
      'Randevu var mı?',
    ])
      expect(BOOKING_INTENT.test(question), question).toBe(true);
    for (const question of [
      'Is the notebook waterproof?',
      'Do you ship to Bucharest?',
      'What does termination cost?',
    ])
      expect(BOOKING_INTENT.test(question), question).toBe(false);
  });
});
