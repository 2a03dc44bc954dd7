import type { SearchHit } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import {
  contentWords,
  decide,
  type QnaPair,
  questionTerms,
  splitAside,
  subjectsOf,
  typoOf,
  unitsOf,
} from './evidence.js';

const hit = (
  id: number,
  title: string,
  content: string,
  sourceType: SearchHit['source_type'] = 'web',
): SearchHit => ({
  chunk_id: id,
  document_id: id,
  source_type: sourceType,
  page_title: title,
  page_url: `https://bakery.example/${id}`,
  page_number: null,
  heading_path: title,
  content,
  synced_at: null,
  score: 1,
  text_rank: 1,
  vector_distance: null,
});

const HITS = [
  hit(1, 'Opening hours', 'Monday: closed\n\nSaturday: 8 am – 4 pm\n\nSunday: 9 am – 1 pm'),
  hit(
    2,
    'Delivery',
    'We deliver from Tuesday to Saturday, between 9 am and 1 pm.\n\nDelivery costs $6, and is free on orders over $50.',
  ),
  hit(3, 'Menu', 'Bread | Price\nCountry sourdough | $8\nSeeded rye | $9'),
  hit(
    4,
    'Do you sell birthday cakes?',
    'Do you sell birthday cakes?\n\nYes! Custom celebration cakes start at $45.',
    'qna',
  ),
];

/** The corpus figures as the search gives them: each word's count among these passages. */
function judged(question: string, pair: QnaPair | null = null, context = '') {
  const words = contentWords(`${question} ${context}`);
  const stats = {
    chunks: 40,
    terms: words.map((word) => ({
      word,
      df: HITS.filter((h) => `${h.page_title} ${h.content}`.toLowerCase().includes(word)).length,
    })),
  };
  return decide({ qna_match: pair, hits: HITS, stats }, question, 0.34, context);
}

describe('evidence', () => {
  it('answers from the unit that holds the question, a figure answering "how much"', () => {
    const { verdict, decision } = judged('How much does delivery cost?');
    expect(verdict.best!.text).toBe('Delivery costs $6, and is free on orders over $50.');
    expect(decision).toMatchObject({
      answers: true,
      source: 'Delivery',
      covered: expect.arrayContaining(['delivery']),
    });
  });

  it('refuses a question whose subject no page holds, and says which word', () => {
    const { decision } = judged('Do you sell pizza?');
    expect(decision).toMatchObject({ answers: false, missing: ['pizza'] });
    expect(decision.summary).toBe('Would not answer: nothing covers pizza');
  });

  it('answers sure when the best unit holds half the question or more, and not sure below it', () => {
    expect(judged('How much does delivery cost?').decision).toMatchObject({ answers: true, sure: true });
    // The menu's row holds "rye" and "bread", nothing holds "organic": an answer, said as not sure.
    const partly = judged('is the rye bread organic?');
    expect(partly.decision).toMatchObject({ answers: true, sure: false, missing: ['organic'] });
    expect(partly.decision.coverage).toBeLessThan(0.5);
    expect(partly.decision.summary).toBe(
      'Would answer from Menu, but say it is not sure and offer a person: covers rye, bread, not organic',
    );
    expect(judged('Do you sell pizza?').decision).toMatchObject({ answers: false, sure: false });
  });

  it("never quotes a customer's words in quotation marks (a review) as the business's answer", () => {
    const reviews = hit(
      18,
      'Customer reviews',
      '"They fitted our new bathroom in six days and it looks fantastic."\n\n“Friendly, tidy and on time. We will use them again.”',
    );
    const units = unitsOf(reviews, 0);
    expect(units.length).toBeGreaterThan(0);
    expect(units.every((u) => !u.quotable)).toBe(true);
    const services = hit(19, 'Bathrooms', 'A new bathroom takes 5 to 7 working days to fit.');
    expect(unitsOf(services, 0)[0]!.quotable).toBe(true);
  });

  it('answers "how long" with a duration in words as well as in figures', () => {
    const shipping = hit(17, 'Shipping', 'Parcels to Canada arrive in five to seven working days.');
    const stats = { chunks: 40, terms: [{ word: 'parcels', df: 1 }] };
    const found = (content: string) =>
      decide({ qna_match: null, hits: [{ ...shipping, content }], stats }, 'how long do parcels take?', 0.34)
        .decision;
    expect(found(shipping.content)).toMatchObject({ answers: true, covered: ['parcels', 'duration'] });
    expect(found('Parcels arrive in 5-7 days.').covered).toContain('duration');
    expect(found('Parcels are sent three times a day.').covered).not.toContain('duration');
  });

  it('reads a list line under its heading, a two-column row as its label and value, a wider row with its column names', () => {
    expect(judged('When do you open on Sunday?').verdict.best!.text).toBe('Sunday: 9 am – 1 pm');
    const rye = judged('how much is the seeded rye').verdict.best!;
    expect(rye.text).toBe('Seeded rye: $9');
    expect(rye.kind).toBe('row');
    const rates = unitsOf(hit(9, 'Rates', 'Room | Low season | High season\nFamily Suite | €180 | €245'), 0);
    expect(rates.map((u) => u.text)).toContain('Family Suite: Low season €180, High season €245');
    // A timetable whose header left out its empty corner names the columns after the times; an
    // empty cell keeps the values after it under their days.
    const timetable = unitsOf(hit(10, 'Timetable', 'Mon | Tue | Wed\n9:00 | Yoga |  | Pilates'), 0);
    expect(timetable.map((u) => u.text)).toContain('9:00: Mon Yoga, Wed Pilates');
    // Lines of a label and its figure, as a plain text file has them, are one line each; wrapped prose is joined.
    const prices = unitsOf(hit(11, 'prices.txt', 'Croissant: 2.80\nBagel: 3.10\nSourdough loaf: 6.50'), 0);
    expect(prices.map((u) => u.text)).toEqual(['Croissant: 2.80', 'Bagel: 3.10', 'Sourdough loaf: 6.50']);
    const wrapped = unitsOf(hit(12, 'About', 'We bake every morning from\nfour, and deliver by nine.'), 0);
    expect(wrapped.map((u) => u.text)).toEqual(['We bake every morning from four, and deliver by nine.']);
  });

  it('answers "how many" with a line that holds a number, its heading naming the subject', () => {
    const rooms = hit(6, 'Private events', '## The room\n\n- Seated dinner: up to 24 guests\n- Its own bar');
    const stats = {
      chunks: 40,
      terms: [
        { word: 'people', df: 1 },
        { word: 'room', df: 3 },
      ],
    };
    const { verdict } = decide(
      { qna_match: null, hits: [rooms], stats },
      'how many people fit in the room?',
      0.34,
    );
    expect(verdict.best!.text).toBe('Seated dinner: up to 24 guests');
  });

  it('leaves out an adverb the bot never heard of: it says how, not what is asked', () => {
    const stats = {
      chunks: 40,
      terms: [
        { word: 'book', df: 3 },
        { word: 'family', df: 0 },
      ],
    };
    const labels = (q: string) => questionTerms(q, stats).map((t) => t.label);
    expect(labels('do i have to buy the book separately')).toEqual(['book']);
    // A noun ending in "ly" is still a word the bot may lack: it keeps its weight.
    expect(labels('do you have family rooms')).toContain('family');
  });

  it("puts a table's caption over its rows: their cells alone do not say what the figures are", () => {
    const table = hit(5, 'Rooms', 'Rates per room per night\nRoom | Sleeps | From\nFamily Suite | 4 | €245');
    const [caption, row] = unitsOf(table, 0);
    expect(caption!.text).toBe('Rates per room per night');
    expect(row).toMatchObject({
      text: 'Family Suite: Sleeps 4, From €245',
      heading: 'Rooms > Rates per room per night > Room Sleeps From',
      kind: 'row',
    });
  });

  it("never makes a pair's question a unit: it is the heading of the pair's answer, one unit read whole", () => {
    const units = unitsOf(HITS[3]!, 3);
    expect(units.map((u) => u.text)).toEqual(['Yes! Custom celebration cakes start at $45.']);
    expect(units.every((u) => u.heading === 'Do you sell birthday cakes?')).toBe(true);
  });

  it("answers with an FAQ entry's answer, never its question: the question heads the paragraph after it", () => {
    const faq = hit(
      7,
      'FAQ',
      'Can I bring my dog?\n\nYes, well-behaved pets stay for €10 a night.\n\nDo you have a lift?\n\nNo, our stairs are narrow.',
    );
    const units = unitsOf(faq, 0);
    expect(units.map((u) => u.text)).toEqual([
      'Yes, well-behaved pets stay for €10 a night.',
      'No, our stairs are narrow.',
    ]);
    expect(units[0]).toMatchObject({ asks: 'Can I bring my dog?', heading: 'FAQ > Can I bring my dog?' });
    const stats = { chunks: 40, terms: [{ word: 'dog', df: 1 }] };
    const { verdict } = decide({ qna_match: null, hits: [faq], stats }, 'are dogs allowed?', 0.34);
    expect(verdict.best!.text).toBe('Yes, well-behaved pets stay for €10 a night.');
    // A question inside a paragraph is prose: "Heading out walking? We'll pack you a lunch."
    const prose = hit(8, 'Dining', 'Heading out walking? We will pack you a lunch for €12.');
    expect(unitsOf(prose, 0).map((u) => u.asks)).toEqual([undefined, undefined]);
  });

  it('takes a pair only when it means the question', () => {
    const pair = {
      qna_id: 4,
      question: 'Do you sell birthday cakes?',
      answer: 'Yes! Custom celebration cakes start at $45.',
      overlap: 1,
    };
    expect(judged('can I get a cake for my birthday?', pair).pair).toBe(pair);
    expect(judged('Do you sell pizza?', pair).pair).toBeNull();
    expect(judged('how much is the seeded rye', pair).pair).toBeNull();
  });

  it('reads a follow-up with the question before it, its own words first', () => {
    const { verdict } = judged('and on Sunday?', null, 'What time do you open on Saturday?');
    expect(verdict.best!.text).toBe('Sunday: 9 am – 1 pm');
  });

  it('takes a word the corpus does not hold for a typo of one it holds', () => {
    expect(typoOf('delivry', 'delivery')).toBe(true);
    expect(typoOf('pasport', 'passport')).toBe(true);
    expect(typoOf('pizza', 'plaza')).toBe(false);
    expect(judged('how much is delivry?').verdict.best!.text).toContain('Delivery costs $6');
  });

  it('does not take a short word, or a word that only begins alike, for one the corpus holds', () => {
    const school = hit(9, 'Lingua Viva', 'You receive a certificate at the end of term.');
    const stats = (...words: string[]) => ({ chunks: 40, terms: words.map((word) => ({ word, df: 0 })) });
    const ask = (q: string, ...unknown: string[]) =>
      decide({ qna_match: null, hits: [school], stats: stats(...unknown) }, q, 0.34).decision;
    // "visa" is one letter from "Viva", "receipt" shares "recei" with "receive": neither is held.
    expect(ask('can you help with a visa', 'visa')).toMatchObject({ answers: false });
    expect(ask('can I get a receipt', 'receipt')).toMatchObject({ answers: false });
  });

  it('reads "check out" and "checkout" as "check-out", "wifi" as "Wi-Fi"', () => {
    const policies = hit(
      10,
      'Policies',
      'Check-in: From 15:00.\n\nCheck-out: By 11:00.\n\nWi-Fi is free everywhere.',
    );
    const stats = { chunks: 40, terms: [{ word: 'check', df: 2 }] };
    const best = (q: string) =>
      decide({ qna_match: null, hits: [policies], stats }, q, 0.34).verdict.best?.text;
    expect(best('what time is check out?')).toBe('Check-out: By 11:00.');
    expect(best('when is checkout')).toBe('Check-out: By 11:00.');
    expect(best('is there wifi')).toBe('Wi-Fi is free everywhere.');
  });

  it('finds what a question asks for: the noun phrase after "do you sell", "is there a", "book a"', () => {
    const subjects = (q: string) => [...subjectsOf(q)];
    expect(subjects('can I book a massage during my stay')).toEqual(['massage']);
    expect(subjects('is there a swimming pool?')).toEqual(['pool']);
    expect(subjects('do you sell pizza')).toEqual(['pizza']);
    // A phrase about something else is not what is asked for, nor is a second sentence.
    expect(subjects('can I get a packed lunch for a hike')).toEqual(['lunch']);
    expect(subjects('do you have a cot for our baby')).toEqual(['cot']);
    expect(subjects('is there a lift? my mum cannot manage stairs')).toEqual(['lift']);
  });

  it('weighs a subject no page holds above the rest: "book" and "stay" do not answer "a massage"', () => {
    const offers = hit(11, 'Offers', 'Book direct and stay three nights for the price of two.');
    const stats = {
      chunks: 20,
      terms: [
        { word: 'book', df: 5 },
        { word: 'stay', df: 4 },
        { word: 'massage', df: 0 },
        // PostgreSQL's stop words are in no chunk's index.
        { word: 'during', df: -1 },
      ],
    };
    const ask = (q: string) => decide({ qna_match: null, hits: [offers], stats }, q, 0.34).decision;
    const massage = ask('can I book a massage during my stay');
    expect(massage.answers).toBe(false);
    expect(massage.missing).toContain('massage');
    // The same words around a word that is not the subject still answer.
    expect(ask('can I book a stay with a massage')).toMatchObject({ answers: true });
  });

  it('prefers, of units that cover as much, the one whose own heading names the subject', () => {
    const bus = hit(12, 'Getting here > By bus', 'The stop is a three-minute walk from the hotel.');
    const dinner = hit(
      13,
      'Breakfast > Dinner',
      "We don't serve dinner, but we will book you a table in town.",
    );
    const stats = {
      chunks: 40,
      terms: [
        { word: 'dinner', df: 2 },
        { word: 'hotel', df: 2 },
      ],
    };
    const { verdict } = decide(
      { qna_match: null, hits: [bus, dinner], stats },
      'can we have dinner at the hotel',
      0.34,
    );
    expect(verdict.best!.text).toBe("We don't serve dinner, but we will book you a table in town.");
  });

  it('goes on, in a follow-up, in the list the previous answer quoted, whose heading names it', () => {
    const contact = hit(
      14,
      'Contact > Office hours',
      '- Saturday: 9:00 – 13:00\n- Sunday: emergency call-outs only',
    );
    const prices = hit(
      15,
      'Prices',
      'Job | Price\nCall-out and first hour, nights (22:00–8:00), Sundays: | £160\nCall-out and first hour, Saturdays: | £120',
    );
    const stats = {
      chunks: 40,
      terms: [
        { word: 'saturday', df: 2 },
        { word: 'sunday', df: 2 },
      ],
    };
    const found = { qna_match: null, hits: [prices, contact], stats };
    const first = decide(found, 'What are your opening hours on Saturday?', 0.34);
    expect(first.verdict.best!.text).toBe('Saturday: 9:00 – 13:00');
    const { verdict } = decide(
      found,
      'and sunday?',
      0.34,
      'What are your opening hours on Saturday?',
      '- Saturday: 9:00 – 13:00',
    );
    expect(verdict.best!.text).toBe('Sunday: emergency call-outs only');
  });

  it('answers "which days" with the days\' names, not with "catch of the day"', () => {
    const menu = hit(
      16,
      'Menu > Weekday set lunch',
      'Served Wednesday to Friday from 12:00. Choose a starter and a main for $19.\n\nFish of the day, market price.',
    );
    const stats = {
      chunks: 40,
      terms: [
        { word: 'set', df: 2 },
        { word: 'lunch', df: 2 },
      ],
    };
    const { verdict } = decide(
      { qna_match: null, hits: [menu], stats },
      'which days do you serve it?',
      0.34,
      'how much is the set lunch?',
      'Choose a starter and a main for $19.',
    );
    expect(verdict.best!.text).toBe('Served Wednesday to Friday from 12:00.');
  });

  it('quotes the sentence a heading opens with when the heading holds the whole question, and no other', () => {
    const offers = hit(
      17,
      'Offers > Special offers > Winter midweek escape',
      'Stay three nights for the price of two, November to March.\n\nThe lowest-priced night is free.',
    );
    const stats = {
      chunks: 40,
      terms: [
        { word: 'winter', df: 2 },
        { word: 'deal', df: 0 },
      ],
    };
    const { verdict } = decide({ qna_match: null, hits: [offers], stats }, "what's the winter deal", 0.34);
    expect(verdict.units.map((u) => u.text)).toEqual([
      'Stay three nights for the price of two, November to March.',
    ]);
  });

  it('counts no contraction as a word of the question: "I\'m" is not a subject the bot lacks', () => {
    expect(contentWords("I'm in Harrogate, we’re late")).toEqual(['harrogate', 'late']);
  });

  it('reads what a visitor tells around a question apart from what they ask', () => {
    expect(
      splitAside("I run a small coffee shop across town, what's the minimum order for wholesale?"),
    ).toEqual({
      asking: "what's the minimum order for wholesale?",
      aside: 'I run a small coffee shop across town',
    });
    expect(splitAside('My son has a peanut allergy. Is it safe for him?')).toEqual({
      asking: 'Is it safe for him?',
      aside: 'My son has a peanut allergy.',
    });
    // A question alone, or one whose asking part holds no word of its own, is all question.
    expect(splitAside('do you price match amazon?').aside).toBe('');
    expect(splitAside("I'm looking for a gluten-free cake, do you have any?").aside).toBe('');
  });

  it('weighs an aside less than the question, and a word of it the bot never heard of as the rarest word', () => {
    const stats = {
      chunks: 40,
      terms: [
        { word: 'uni', df: 0 },
        { word: 'classes', df: 4 },
        { word: 'students', df: 1 },
      ],
    };
    const terms = questionTerms('im at uni, are classes any cheaper for students', stats);
    const weight = (label: string) => terms.find((t) => t.label === label)!.weight;
    expect(terms.find((t) => t.label === 'uni')).toMatchObject({ context: true, unknown: true });
    // The rarest word the corpus holds (df 1) weighs more than the unknown word of the aside.
    expect(weight('uni')).toBeLessThan(weight('students'));
    // Asked in the question itself, the same unknown word weighs more than the rarest known one.
    const asked = questionTerms('are there classes at the uni for students', stats);
    expect(asked.find((t) => t.label === 'uni')!.weight).toBeGreaterThan(weight('students'));
  });

  it('leaves out the people a visitor asks for, and weighs a number no page holds lightly', () => {
    const stats = {
      chunks: 40,
      terms: [
        { word: 'husbands', df: 0 },
        { word: 'voucher', df: 2 },
        { word: 'birthday', df: 1 },
        { word: 'pack', df: 3 },
        { word: '20', df: 0 },
        { word: 'boyfriend', df: 0 },
        { word: 'husband', df: 2 },
      ],
    };
    const labels = (q: string) => questionTerms(q, stats).map((t) => t.label);
    expect(labels('can i get a voucher for my husbands birthday')).toEqual(['voucher', 'birthday']);
    expect(labels('can my boyfriend use my 20 pack')).toEqual(['20', 'pack']);
    const terms = questionTerms('is 20 too many for hot yoga', stats);
    expect(terms.map((t) => t.label)).toEqual(['20', 'hot', 'yoga']);
    // Both unknown; the number weighs a third of the word (half the rarest, against one and a half).
    expect(terms[0]!.weight / terms[2]!.weight).toBeCloseTo(1 / 3);
    // A person the pages do name is a word like any other.
    expect(labels('is there a discount for my husband')).toContain('husband');
  });

  it('hears "when" as asking for a time only where it opens a question', () => {
    const asksTime = (q: string) =>
      questionTerms(q, { chunks: 40, terms: [] }).some((t) => t.intent === 'time');
    expect(asksTime('When do you open on Sunday?')).toBe(true);
    expect(asksTime('I booked for Friday, when can I check in?')).toBe(true);
    expect(asksTime('where do i leave my car when i come for my appointment')).toBe(false);
  });

  it('hears "do I have to pay for" as asking a price, and joins irregular plurals and pets', () => {
    const intents = (q: string) => questionTerms(q, { chunks: 40, terms: [] }).map((t) => t.intent);
    expect(intents('do I need to pay extra for x-rays?')).toContain('price');
    expect(intents('can I pay by card?')).not.toContain('price');
    expect(intents('are classes any cheaper for students')).toContain('price');
    const keys = (q: string) => questionTerms(q, { chunks: 40, terms: [] }).flatMap((t) => t.keys);
    expect(keys('is tooth whitening free')).toContain('teeth');
    expect(keys('is my pup allowed in')).toContain('dog');
  });
});

describe('follow-ups', () => {
  it('answers a follow-up only with a line that holds something of what it newly asks', () => {
    const sunday = judged('and on Sunday?', null, 'When do you open on Saturday?');
    expect(sunday.verdict.best!.text).toBe('Sunday: 9 am – 1 pm');
  });

  it('answers "and for a cat?" with the cat\'s line, not the dog\'s: a pet is a dog or a cat, a dog no cat', () => {
    const prices = hit(
      20,
      'Prices | Riverside Vets',
      '- Dog annual booster vaccination: £62.00\n- Cat annual booster vaccination: £58.00',
    );
    const stats = {
      chunks: 40,
      terms: [
        { word: 'booster', df: 1 },
        { word: 'cat', df: 1 },
        { word: 'dog', df: 1 },
      ],
    };
    const { verdict } = decide(
      { qna_match: null, hits: [prices], stats },
      'what about for a cat',
      0.34,
      'how much is the yearly booster for a dog',
      'Dog annual booster vaccination: £62.00.',
    );
    expect(verdict.best!.text).toBe('Cat annual booster vaccination: £58.00');
    // Asked about pets in general, a line about dogs still answers.
    const pets = hit(21, 'House rules', 'Dogs are welcome in the garden rooms.');
    const welcome = decide(
      { qna_match: null, hits: [pets], stats: { chunks: 40, terms: [{ word: 'pets', df: 0 }] } },
      'are pets allowed?',
      0.34,
    ).verdict;
    expect(welcome.best?.text).toBe('Dogs are welcome in the garden rooms.');
  });

  it("does not read the site's name in every page title as what a follow-up newly asks", () => {
    const title = (page: string) => `${page} — Casa Amparo · Ruzafa, València`;
    const groups = {
      ...hit(
        22,
        title('Grupos'),
        'Menú Albufera: precio por persona 32 €.\n\nMenú Ruzafa: precio por persona 38 €.',
      ),
      heading_path: `${title('Grupos')} > Menús de grupo`,
    };
    const home = hit(23, title('Inicio'), 'Arroces y tapas en el corazón del barrio.');
    const stats = {
      chunks: 40,
      languages: ['spanish' as const],
      terms: ['menú', 'albufera', 'ruzafa', 'persona', 'grupos'].map((word) => ({ word, df: 2 })),
    };
    const { verdict } = decide(
      { qna_match: null, hits: [groups, home], stats },
      'y el ruzafa?',
      0.34,
      'cuánto cuesta por persona el menú Albufera para grupos?',
      'Menú Albufera: precio por persona 32 €.',
    );
    expect(verdict.best!.text).toBe('Menú Ruzafa: precio por persona 38 €.');
  });
});

describe('words as visitors type them', () => {
  it('finds a line that holds as one word what the visitor wrote as two', () => {
    const prices = hit(9, 'Kanotuthyrning', 'Priser\n\n- Kanot, heldag: 425 kr\n- Kanot, 3 timmar: 275 kr');
    const stats = { chunks: 40, terms: [{ word: 'kanot', df: 2 }], languages: ['swedish' as const] };
    const { verdict } = decide(
      { qna_match: null, hits: [prices], stats },
      'vad kostar en kanot en hel dag?',
      0.34,
    );
    expect(verdict.best!.text).toBe('Kanot, heldag: 425 kr');
    expect(verdict.best!.covered.map((t) => t.label)).toEqual(
      expect.arrayContaining(['hel', 'dag', 'kanot']),
    );
    // A compound is found whole, not as the start of another word: "hel" and "dag" are not "helg".
    const weekend = hit(10, 'Öppettider', 'Helg: stängt');
    const open = decide({ qna_match: null, hits: [weekend], stats }, 'öppet en hel dag?', 0.34).verdict;
    expect(open.best?.covered.map((t) => t.label) ?? []).not.toContain('hel');
  });

  it('reads a word typed without its accents as the word', () => {
    expect(typoOf('cocuk', 'çocuk')).toBe(true);
    const kids = hit(11, 'Tekne turları', 'Çocuklar için 400 TL.');
    const stats = { chunks: 40, terms: [{ word: 'cocuklar', df: 0 }], languages: ['turkish' as const] };
    const { verdict } = decide({ qna_match: null, hits: [kids], stats }, 'cocuklar icin ne kadar?', 0.34);
    expect(verdict.best?.text).toBe('Çocuklar için 400 TL.');
  });
});
