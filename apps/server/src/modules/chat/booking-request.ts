/**
 * Whether a visitor's words ask to book, for a bot without a language model (with one, the model
 * calls the booking tool itself). In every language the bot's own lines speak (reply-texts.ts): a
 * Spanish visitor asking "¿puedo reservar una mesa?" gets the booking link as an English one does.
 */

/** A pattern of whole words in any script (`\b` knows ASCII letters only: "réserver", "забронировать"). */
const words = (alternatives: readonly string[]) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'iu');

/** Nouns and verbs of booking, language by language; most are nouns too ("the book Dune", "cancel my booking"). */
const BOOKING_WORDS = [
  // English
  'book(?:ing|ings|ed)?',
  'schedul(?:e|ing)',
  'appointments?',
  'meetings?',
  'demos?',
  'reserv(?:e|ation|ations)',
  'slots?',
  'call ?back',
  'set up a call',
  // Spanish, French, Italian, Portuguese, Dutch, Danish, Norwegian (reservar, réserver, reserveren...)
  'r[eé]serv\\p{L}*',
  'citas?',
  'agendar',
  'rendez-vous',
  'rdv',
  'créneaux?',
  'prenot\\p{L}*',
  'appuntament[oi]',
  'marcação',
  'boeken',
  'boeking(?:en)?',
  'afspraak',
  'afspraken',
  'booke',
  'tidsbestilling',
  'timebestilling',
  // German
  'buchen',
  'buchung(?:en)?',
  'termin(?:e|vereinbarung)?',
  // Swedish
  'boka',
  'bokning(?:ar)?',
  'tidsbokning',
  // Finnish
  'varata',
  'varaan',
  'varaisin',
  'varaus',
  'varauksen',
  'ajanvaraus',
  // Russian
  'брон\\p{L}*',
  'забронир\\p{L}*',
  'записаться',
  // Hungarian
  'foglal\\p{L}*',
  'időpont\\p{L}*',
  // Turkish
  'rezervasyon\\p{L}*',
  'randevu\\p{L}*',
] as const;

/** Words of booking: they offer the booking only where the sources do not answer. */
export const BOOKING_INTENT = words(BOOKING_WORDS);

/** What a visitor may book: a meeting of some kind, a place, a time. */
const BOOKABLE =
  '(demo|call|meeting|appointment|consultation|session|slot|time|table|visit|viewing|tour|lesson|class|trial|test ?drive|room|stay|date|fitting|service|check-?up)s?';

/** English: a verb of booking with what is booked, "how do I book", "book me in", "call me back". */
const ENGLISH_REQUESTS = [
  `(book|schedule|reserve|arrange|set up|make)\\s+((a|an|my|me|us|in|the|our|your|some|another|one|for|free|quick|short|new|private|group|first|initial|follow-up|half|full|day|minutes?|mins?|hours?|\\d+(-minute|-hour)?)\\s+){0,3}${BOOKABLE}`,
  '(how|where|can|could|may) (do |can |could )?(i|we) (book|schedule|reserve)',
  '(want|like|love|need) to (book|schedule|reserve)',
  'book (me|us) in',
  'call (me|us) ?back',
];

/** A few words between a wish and its verb ("kann ich einen Tisch für 4 Personen am Samstag reservieren"). */
const GAP = '(?:\\s+[\\p{L}\\p{N}]+){0,8}\\s+';

/** The same in the other languages: a wish, an ask or "how" with a verb of booking. */
const OTHER_REQUESTS = [
  // Spanish
  '(puedo|podemos|podría|podríamos|quiero|queremos|quisiera|quisiéramos|gustaría|necesito|necesitamos|cómo|dónde|se puede)\\s+(puedo\\s+|podemos\\s+|hacer\\s+|hago\\s+|pedir\\s+)?(reservar|agendar|concertar|una\\s+reserva|una\\s+cita)',
  '(pedir|sacar)\\s+(una\\s+)?(cita|hora|turno)',
  // French
  "(je\\s+voudrais|j['’]aimerais|je\\s+veux|je\\s+souhaite|nous\\s+voudrions|puis-je|peut-on|pourrais-je|comment|où)\\s+(puis-je\\s+|peut-on\\s+|faire\\s+|prendre\\s+)?(r[ée]server|une\\s+réservation|un\\s+rendez-vous|rendez-vous|rdv)",
  'prendre\\s+(un\\s+)?(rendez-vous|rdv)',
  // Italian
  '(posso|possiamo|potrei|vorrei|voglio|vorremmo|come|dove)\\s+(posso\\s+|possiamo\\s+|si\\s+può\\s+|fare\\s+|prendere\\s+|fissare\\s+)?(prenotare|una\\s+prenotazione|un\\s+appuntamento)',
  // Portuguese
  '(posso|podemos|poderia|quero|queria|queremos|gostaria\\s+de|preciso|precisamos|como|onde)\\s+(posso\\s+|podemos\\s+|fazer\\s+)?(reservar|agendar|marcar|uma\\s+reserva|uma\\s+consulta)',
  // German: the verb comes last
  `(möchte|möchten|will|wollen|würde|würden|kann|können|könnte|wie|wo)${GAP}(buchen|reservieren|vereinbaren)`,
  'termin\\s+(vereinbaren|machen|buchen)',
  // Dutch
  `(kan\\s+ik|kunnen\\s+we|kunnen\\s+wij|ik\\s+wil|we\\s+willen|wij\\s+willen|ik\\s+zou\\s+graag|hoe|waar)${GAP}(reserveren|boeken|inplannen)`,
  'afspraak\\s+maken',
  // Danish, Norwegian, Swedish
  `(kan\\s+jeg|kan\\s+vi|vil\\s+gerne|vil\\s+gjerne|ønsker|hvordan|kan\\s+jag|vill|skulle\\s+vilja|hur)${GAP}(booke|booker|reservere|boka|bokar|reservera)`,
  // Finnish
  '(voinko|voisinko|haluaisin|haluan|haluaisimme|miten|kuinka)\\s+(\\p{L}+\\s+)?(varata|varaan|tehdä\\s+varauksen)',
  // Russian
  '(хочу|хотел|хотела|хотим|можно|могу|можем|как|где)\\s+(бы\\s+|я\\s+|мне\\s+)?(забронировать|записаться|заказать\\s+столик)',
  // Hungarian
  '(szeretnék|szeretnénk|tudok|tudnék|lehet|hogyan|hol)\\s+(\\p{L}+\\s+)?(foglalni|időpontot\\s+foglalni|asztalt\\s+foglalni)',
  // Turkish
  '(rezervasyon|randevu)\\s+(yapmak|yaptırmak|almak|alabilir|yapabilir|istiyorum)',
];

/**
 * A request to book, answered with the booking button before the sources are searched. Not "do
 * you sell the book Dune", "what if I cancel my booking" nor "¿cómo cancelo mi reserva?", which
 * the sources answer.
 */
export const BOOKING_REQUEST = words([...ENGLISH_REQUESTS, ...OTHER_REQUESTS]);
