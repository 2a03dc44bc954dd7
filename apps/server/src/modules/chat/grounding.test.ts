import { describe, expect, it } from 'vitest';
import { figureGate, readGiven, unsupportedFigures } from './grounding.js';

const sourcesOf = (...texts: string[]) => readGiven({ sources: texts.map((text) => ({ text })) });
const unsupported = (answer: string, ...given: string[]) => unsupportedFigures(answer, sourcesOf(...given));

describe('figures a model states, checked against what it was given', () => {
  it('finds a price the sources do not hold, however the currency is written', () => {
    const sources = 'Delivery costs $6, and is free on orders over $50.';
    expect(unsupported('Delivery is $6 [1], free over $50.', sources)).toEqual([]);
    expect(unsupported('Delivery is 6 dollars.', sources)).toEqual([]);
    expect(unsupported('Delivery is $7.50 [1].', sources)).toEqual(['$7.50']);
    expect(unsupported('Free on orders over $40.', sources)).toEqual(['$40']);
  });

  it('reads decimal commas, grouped thousands and cents as the same value', () => {
    expect(unsupported('Le menu coûte 19,50 €.', 'Menu: 19.50 EUR')).toEqual([]);
    expect(unsupported('It costs $45.00.', 'Cakes from $45')).toEqual([]);
    expect(unsupported('Det kostar 1 250 kr.', 'Pris: 1250 kr')).toEqual([]);
    expect(unsupported('It is 1,250 a week.', 'Price 1.250 per week')).toEqual([]);
    expect(unsupported('It costs 1,300.', 'Price 1.250 per week')).toEqual(['1,300']);
  });

  it('reads a time of day in any of its spellings', () => {
    const hours = 'Saturday: 9 am – 1 pm. Weekdays 07:30–17:00.';
    expect(unsupported('We open at 9:00 AM on Saturday and close at 13:00.', hours)).toEqual([]);
    expect(unsupported('Weekdays from 7.30am to 5pm.', hours)).toEqual([]);
    expect(unsupported('On weekdays we close at 17h.', hours)).toEqual([]);
    expect(unsupported('We close at 6pm.', hours)).toEqual(['6pm']);
    // A site that writes hours as plain numbers ("9 till 5") supports the times they are.
    expect(unsupported('We are open 9am to 5pm.', 'Open 9 till 5, Monday to Friday.')).toEqual([]);
  });

  it('checks percentages, counts of ten and more, and years', () => {
    const policy = 'Returns within 30 days for a full refund. 10% off for students. Since 1987.';
    expect(unsupported('You have 30 days, and students get 10% off.', policy)).toEqual([]);
    expect(unsupported('You have 14 days.', policy)).toEqual(['14']);
    expect(unsupported('Students get 15% off.', policy)).toEqual(['15%']);
    expect(unsupported('Family-run since 1990.', policy)).toEqual(['1990']);
  });

  it('leaves small counts alone, since the sources may spell them out', () => {
    expect(unsupported('We are open 7 days a week, with 2 chefs.', 'Open seven days a week.')).toEqual([]);
    expect(unsupported('It costs $7.', 'Open seven days a week.')).toEqual(['$7']);
  });

  it('checks phone numbers by their digits, e-mail addresses and links', () => {
    const contact =
      'Call us on (555) 123-4567 or write to hello@bluefern.example. Book at https://bluefern.example/book.';
    expect(unsupported('Call 555-123-4567 or email Hello@BlueFern.example.', contact)).toEqual([]);
    expect(unsupported('Call +1 555 123 4567.', contact)).toEqual([]);
    expect(unsupported('Call 555-987-6543.', contact)).toEqual(['555-987-6543']);
    expect(unsupported('Call 123-4567.', contact)).toEqual([]);
    expect(unsupported('Call (556) 123-4567.', contact)).toEqual(['(556) 123-4567']);
    expect(unsupported('Call +1 556 123 4567.', contact)).toEqual(['+1 556 123 4567']);
    expect(unsupported('Write to orders@bluefern.example.', contact)).toEqual(['orders@bluefern.example']);
    expect(unsupported('Book at bluefern.example/book or www.bluefern.example.', contact)).toEqual([]);
    expect(unsupported('See https://bluefern.example/menu.', contact)).toEqual([
      'https://bluefern.example/menu',
    ]);
    expect(unsupported('See https://cakes.example.', contact)).toEqual(['https://cakes.example']);
  });

  it('takes what the visitor said as given, and never counts citation markers', () => {
    expect(unsupported('For 12 people the room is fine [1][2].', 'The room seats up to 20.')).toEqual(['12']);
    expect(
      unsupported('For 12 people the room is fine [1].', 'The room seats up to 20.', 'We are 12 people'),
    ).toEqual([]);
  });

  it("does not read a numbered list's numbers as figures", () => {
    const steps = Array.from({ length: 11 }, (_, i) => `${i + 1}. Step ${i + 1 > 9 ? 'more' : 'one'}`);
    expect(unsupported(steps.join('\n'), 'Nothing numbered here.')).toEqual([]);
    expect(unsupported('10. Bring 12 eggs.', 'Bring eggs.')).toEqual(['12']);
  });

  it("takes a visitor's counts and contact details as given, but not a price or a time they suggest", () => {
    const given = readGiven({
      sources: [{ text: 'Delivery costs $6. Open 9 am to 9 pm.' }],
      visitor: ['Is delivery $2? Can I come at 10pm with 12 friends? Call me on 555 010 9999.'],
    });
    expect(unsupportedFigures('Yes, delivery is $2.', given)).toEqual(['$2']);
    expect(unsupportedFigures('Yes, come at 10pm.', given)).toEqual(['10pm']);
    expect(unsupportedFigures('A table for 12 is fine; we will call 555 010 9999.', given)).toEqual([]);
  });

  it('checks only phone numbers and e-mail addresses for a bot allowed general knowledge', () => {
    const given = sourcesOf('Call us on (555) 123-4567.');
    const answer = 'Water boils at 100 °C; a kettle costs about $30. Call 555-999-0000 or mail a@b.example.';
    expect(unsupportedFigures(answer, given, { contactsOnly: true })).toEqual([
      '555-999-0000',
      'a@b.example',
    ]);
    expect(unsupportedFigures('Call (555) 123-4567.', given, { contactsOnly: true })).toEqual([]);
  });

  it('reads no figure inside a code of letters and digits', () => {
    // A workspace's automatic name ("Acme 4b7765d2") in the welcome supports no price.
    expect(unsupported('Delivery is $2.', 'Welcome to Acme 4b7765d2!')).toEqual(['$2']);
    expect(unsupported('Order code A12B is ready; it costs 45kr.', 'Pris: 45 kr')).toEqual([]);
  });

  it('reads dates as their numbers', () => {
    expect(unsupported('We reopen on 12.05.2026.', 'Closed until 12 May 2026.')).toEqual([]);
    expect(unsupported('We reopen on 14/05/2026.', 'Closed until 12 May 2026.')).toEqual(['14']);
  });
});

describe('the days of the week an answer names', () => {
  const hours = 'Opening hours\n\nMonday: closed\nTuesday to Friday: 7 am – 6 pm\nSat 8 am – 4 pm';
  const delivery = 'Delivery\n\nWe deliver from Tuesday to Saturday.';
  const given = readGiven({
    sources: [
      { title: 'Hours', text: hours },
      { title: 'Delivery', text: delivery },
    ],
  });

  it('lets a day stand that the sources give as one it is open, in a range or a short name', () => {
    expect(unsupportedFigures('We are open on Wednesday.', given)).toEqual([]);
    expect(unsupportedFigures('On Saturdays we open at 8 am.', given)).toEqual([]);
    expect(unsupportedFigures('We deliver Tuesday to Saturday.', given)).toEqual([]);
    expect(unsupportedFigures('We are open Tue–Fri from 7 am.', given)).toEqual([]);
    // Monday is closed; 7 am is said of Tuesday to Friday, which the range holds too.
    expect(unsupportedFigures('We are open Mon–Fri from 7 am.', given)).toEqual(['Mon–Fri']);
  });

  it('holds back a day the sources give only as closed, or not for what it is said of', () => {
    expect(unsupportedFigures('Yes, we are open on Monday.', given)).toEqual(['Monday']);
    expect(unsupportedFigures('We are open Monday to Friday.', given)).toEqual(['Monday to Friday']);
    expect(unsupportedFigures('We deliver on Sundays too.', given)).toEqual(['Sundays']);
    expect(unsupportedFigures('We deliver on Fridays.', given)).toEqual([]);
  });

  it('lets a day stand that the answer says is closed, or not so, and takes none from the visitor', () => {
    expect(unsupportedFigures('We are closed on Mondays.', given)).toEqual([]);
    expect(unsupportedFigures("Sorry, we don't deliver on Sundays.", given)).toEqual([]);
    // A model's typographic apostrophe says not as well.
    expect(unsupportedFigures('Sorry, we don’t deliver on Sundays.', given)).toEqual([]);
    const asked = readGiven({ sources: [{ text: hours }], visitor: ['Can I come on Monday?'] });
    expect(unsupportedFigures('Yes, come on Monday.', asked)).toEqual(['Monday']);
  });

  it('reads the days in other languages', () => {
    const spanish = readGiven({
      sources: [{ text: 'Horario: de lunes a viernes, de 9 a 18 h. Domingo: cerrado.' }],
    });
    expect(unsupportedFigures('Abrimos el miércoles.', spanish)).toEqual([]);
    expect(unsupportedFigures('Abrimos los domingos.', spanish)).toEqual(['domingos']);
    const german = readGiven({ sources: [{ text: 'Öffnungszeiten: Mo–Fr 9–18 Uhr, Sa 9–13 Uhr.' }] });
    expect(unsupportedFigures('Am Samstag haben wir geöffnet.', german)).toEqual([]);
    expect(unsupportedFigures('Am Sonntag haben wir geöffnet.', german)).toEqual(['Sonntag']);
  });
});

describe('a figure the answer works out in view of the visitor', () => {
  const rates = sourcesOf('A double room is $120 a night. Dinner is $45 a head. 10% off stays of a week.');

  it('lets a product, a sum or a discount of figures it states stand', () => {
    expect(unsupportedFigures('Two nights: 2 × $120 = $240.', rates)).toEqual([]);
    expect(unsupportedFigures('A double room is $120 a night, so 3 nights come to $360.', rates)).toEqual([]);
    expect(unsupportedFigures('A room at $120 and dinner at $45 come to $165.', rates)).toEqual([]);
    expect(unsupportedFigures('With 10% off, $120 becomes $108.', rates)).toEqual([]);
  });

  it("multiplies by the visitor's count", () => {
    const asked = readGiven({
      sources: [{ text: 'Dinner is $45 a head.' }],
      visitor: ['How much is dinner for 3 of us?'],
    });
    expect(unsupportedFigures('Dinner is $45 a head, so $135 for you.', asked)).toEqual([]);
    expect(unsupportedFigures('Dinner is $45 a head, so $180 for you.', asked)).toEqual(['$180']);
  });

  it('does not let a figure stand that the working does not give', () => {
    expect(unsupportedFigures('Two nights come to $240.', rates)).toEqual(['$240']);
    expect(unsupportedFigures('2 nights at $120 is $250.', rates)).toEqual(['$250']);
    // The figures worked from must stand themselves.
    expect(unsupportedFigures('2 nights at $130 is $260.', rates)).toEqual(['$130', '$260']);
  });
});

describe('a figure said of something other than what the sources say it of', () => {
  const bakery = [
    {
      title: 'Menu | Blue Fern Bakery',
      text: 'Bread\n\nCountry sourdough: $8\nSeeded rye: $9\n\nCakes\n\nAn 8-inch cake is $78.',
    },
    { title: 'Delivery | Blue Fern Bakery', text: 'We deliver within 5 miles.\n\nDelivery costs $6.' },
    {
      title: 'Events | Blue Fern Bakery',
      text: 'We cater for parties of twenty or more.\n\nDelivery fees\nDistance | Fee\nUp to 5 miles | $14',
    },
  ];
  const given = readGiven({ sources: bakery });

  it("catches a price from elsewhere in the sources: the rye's $9 is no delivery fee", () => {
    expect(unsupportedFigures('Delivery is $9 [1].', given)).toEqual(['$9']);
    expect(unsupportedFigures('Our seeded rye is $9 [1].', given)).toEqual([]);
    expect(unsupportedFigures('Delivery is $6, and the seeded rye is $9.', given)).toEqual([]);
    // Two prices swapped, clause by clause.
    expect(unsupportedFigures('Delivery is $9, and the seeded rye is $6.', given)).toEqual(['$9', '$6']);
  });

  it('reads a price list under its heading and the header of its table', () => {
    expect(unsupportedFigures('Delivery up to 5 miles is $14.', given)).toEqual([]);
    expect(unsupportedFigures('The fee is $14.', given)).toEqual([]);
    expect(unsupportedFigures('An 8-inch cake is $14.', given)).toEqual(['$14']);
  });

  it("reads a list's items apart: a day's hours are not another day's", () => {
    const hours = sourcesOf(
      'Opening hours\n\nMonday: closed\nTuesday to Friday: 7 am – 6 pm\nSaturday: 8 am – 4 pm',
    );
    expect(unsupportedFigures('On Saturday we open at 8 am.', hours)).toEqual([]);
    // Monday is closed, and 8 am is Saturday's.
    expect(unsupportedFigures('On Monday we open at 8 am.', hours)).toEqual(['Monday', '8 am']);
  });

  it("reads a short answer by the visitor's question, the answer's own words first", () => {
    expect(unsupportedFigures("It's $14.", given, { about: 'how much to deliver 3 miles away?' })).toEqual(
      [],
    );
    expect(unsupportedFigures("It's $14.", given, { about: 'how much is an 8 inch cake?' })).toEqual(['$14']);
    // "costs" says it is a price, not of what: the question says that.
    expect(unsupportedFigures('It costs $14.', given, { about: 'what is the fee for delivery?' })).toEqual(
      [],
    );
    // The visitor asked of both; the answer says $9 of delivery.
    const both = { about: 'how much is delivery and a seeded rye?' };
    expect(unsupportedFigures('Delivery is $9.', given, both)).toEqual(['$9']);
  });

  it('lets a figure stand where what it is said of cannot be told', () => {
    // In words the sources do not hold (another language, the model's own words).
    expect(unsupportedFigures('La livraison coûte 9 $.', given)).toEqual([]);
    expect(unsupportedFigures("It's $9.", given, { about: 'y el envío?' })).toEqual([]);
    // A figure the visitor gave may be said of anything.
    const visited = readGiven({ sources: bakery, visitor: ['We are 14 people'] });
    expect(unsupportedFigures('An 8-inch cake for 14 people is $78.', visited)).toEqual([]);
  });

  it("ignores the words most titles share, the business's name", () => {
    expect(unsupportedFigures('Blue Fern delivers for $9.', given)).toEqual(['$9']);
  });
});

describe('the figure gate on a streaming answer', () => {
  const given = sourcesOf('Delivery costs $6, and is free on orders over $50. Call (555) 123-4567.');
  const run = (deltas: string[]) => {
    const shown: string[] = [];
    const gate = figureGate(
      (text) => shown.push(text),
      (sentence) => unsupportedFigures(sentence, given),
    );
    const seen: string[] = [];
    for (const delta of deltas) {
      gate.push(delta);
      seen.push(shown.join(''));
    }
    return { failed: gate.end(), shown: shown.join(''), seen };
  };

  it('shows words as they come and holds a figure until its sentence ends', () => {
    const { failed, shown, seen } = run(['Delivery ', 'is ', '$', '6', ', free over $5', '0. ', 'Enjoy!']);
    expect(failed).toEqual([]);
    expect(shown).toBe('Delivery is $6, free over $50. Enjoy!');
    expect(seen[0]).toBe('Delivery ');
    expect(seen[3]).toBe('Delivery is ');
    expect(seen[5]).toBe('Delivery is $6, free over $50. ');
  });

  it('shows the words after a citation marker as they come', () => {
    const { seen } = run(['We deliver [1]', ' to your door ', 'and office.']);
    expect(seen[1]).toBe('We deliver [1] to your door ');
  });

  it('never shows a sentence with a made-up figure, nor anything after it', () => {
    const { failed, shown } = run(['Sure! ', 'Delivery is $', '9 [1]. ', 'Call (555) 123-4567.']);
    expect(failed).toEqual(['$9']);
    expect(shown).toBe('Sure! Delivery is ');
  });

  it('checks the last sentence when the stream ends without a full stop', () => {
    expect(run(['Call (555) ', '123-4567']).failed).toEqual([]);
    expect(run(['Call (555) ', '999-4567']).failed).toEqual(['(555) 999-4567']);
  });

  it('shows a word as it comes, and still reads a figure it turns out to begin', () => {
    const link = run(['Order at ww', 'w.example.com today. ']);
    expect(link.seen[0]).toBe('Order at ww');
    expect(link.failed).toEqual(['www.example.com']);
    const email = run(['Write to hello', '@bluefern.example', ' any time.']);
    expect(email.failed).toEqual(['hello@bluefern.example']);
    expect(email.shown).toBe('Write to hello');
  });
});
