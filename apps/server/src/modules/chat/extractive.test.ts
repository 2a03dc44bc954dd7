import type { SearchHit } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { contentWords, decide } from '../knowledge/evidence.js';
import { extractive } from './answer.service.js';

const hit = (documentId: number, title: string, content: string, chunk = 0): SearchHit => ({
  chunk_id: documentId * 10 + chunk,
  document_id: documentId,
  source_type: 'web',
  page_title: title,
  page_url: `https://docs.example/${documentId}`,
  page_number: null,
  heading_path: title,
  content,
  synced_at: null,
  score: 1 / documentId,
  text_rank: 1,
  vector_distance: null,
});

/** The extractive answer to a question from these passages, judged as a bot judges it (its df counted here). */
function extractiveAnswer(passages: SearchHit[], question: string, max = 3) {
  const stats = {
    chunks: passages.length,
    terms: contentWords(question).map((word) => ({
      word,
      df: passages.filter((p) => p.content.toLowerCase().includes(word)).length,
    })),
  };
  const { verdict } = decide({ qna_match: null, hits: passages, stats }, question, 0.34);
  expect(verdict.answers).toBe(true);
  return extractive(verdict, passages, max);
}

describe('extractive answers', () => {
  it('quote the sentence that holds the question, from whichever page, not the page ranked first', () => {
    const answer = extractiveAnswer(
      [
        hit(
          1,
          'Hooks',
          'Hooks are functions a plugin registers with the framework. They take two arguments.',
        ),
        hit(
          2,
          'Lifecycle',
          'The request lifecycle runs the hooks in order: onRequest, preParsing, preValidation.',
        ),
      ],
      'in which order does the request lifecycle run hooks',
    );
    expect(answer.sources.map((s) => s.page_title)).toEqual(['Lifecycle']);
    expect(answer.text).toBe(
      'The request lifecycle runs the hooks in order: onRequest, preParsing, preValidation.',
    );
  });

  it('quote whole sentences that the source wraps over lines, and never code', () => {
    const answer = extractiveAnswer(
      [
        hit(
          1,
          'Hooks',
          [
            '```js',
            '// Register the hook before the body is parsed.',
            "fastify.addHook('preParsing', async () => {})",
            '```',
            'If you are using the `preParsing` hook, you can transform the request payload',
            'stream before it is parsed. It receives the request and reply objects.',
          ].join('\n'),
        ),
      ],
      'which hook runs before the body is parsed',
    );
    expect(answer.text).toContain(
      'If you are using the `preParsing` hook, you can transform the request payload stream before it is parsed.',
    );
    expect(answer.text).not.toContain('Register the hook');
    expect(answer.text).not.toMatch(/^stream before/);
  });

  it('read every passage found of a page, and cite the page when its second passage answers', () => {
    const answer = extractiveAnswer(
      [
        hit(1, 'Hooks', "```js\nfastify.addHook('onRequest', handler)\n```"),
        hit(
          2,
          'TypeScript',
          'The hook types are generic over the server. They cover every hook the request runs.',
        ),
        hit(1, 'Hooks', 'The preParsing hook runs before the body is parsed, on the raw request stream.', 1),
      ],
      'which hook runs before the body is parsed',
    );
    expect(answer.sources[0]!.page_title).toBe('Hooks');
    expect(answer.text).toContain('The preParsing hook runs before the body is parsed');
  });

  it('read a list item as a sentence of its own, not glued to the line before', () => {
    const answer = extractiveAnswer(
      [
        hit(
          1,
          'Install',
          'Install it with one of these commands:\n- npm install the package from the registry.\n- yarn add the package to the project.',
        ),
      ],
      'how do I install the package with npm',
    );
    expect(answer.text).toContain('npm install the package from the registry.');
    expect(answer.text).not.toContain('- npm');
  });

  it('keep a link or an abbreviation inside its sentence, and skip a list of links', () => {
    const passages = [
      hit(
        1,
        'Hooks',
        [
          '- [Hooks](#hooks) - [Lifecycle](#lifecycle) - [Close](#close) - [Plugins](#plugins).',
          'Use [`onClose` hooks](../Reference/Plugins.md) to release database connection pools when the server closes.',
          'Pass a timeout (e.g. Use 5 seconds) when the database connection pools close slowly.',
        ].join('\n'),
      ),
    ];
    const answer = extractiveAnswer(
      passages,
      'how do I release database connection pools when the server closes',
    );
    expect(answer.text).toContain(
      'Use [`onClose` hooks](../Reference/Plugins.md) to release database connection pools when the server closes.',
    );
    expect(answer.text).not.toContain('[Lifecycle](#lifecycle)');
    const slow = extractiveAnswer(passages, 'what timeout when database connection pools close slowly');
    expect(slow.text).toBe(
      'Pass a timeout (e.g. Use 5 seconds) when the database connection pools close slowly.',
    );
  });
});

describe('a price table', () => {
  // The page's title names every kind of bike, as shops' titles do; the table's header holds a figure in a label.
  const RATES = hit(
    1,
    'Bike Rentals | Cruisers, Hybrids, Mountain & E-Bikes',
    [
      '## Rental rates',
      '',
      'Bike | Per hour (2-hour minimum) | Full day',
      'City cruiser | $12 | $45',
      'Hybrid | $16 | $55',
      'Full-suspension mountain bike | $22 | $85',
      'E-bike (Class 1, pedal assist) | $28 | $95',
    ].join('\n'),
  );
  // A shop's corpus: "e-bike" is on many of its pages, "hybrid" on few.
  const DF: Record<string, number> = { 'e-bike': 25, hybrid: 3, rent: 8, day: 12 };
  const stats = (question: string) => ({
    chunks: 60,
    terms: contentWords(question).map((word) => ({ word, df: DF[word] ?? 1 })),
  });

  it('reads each row with its header, and quotes the row asked about alone', () => {
    const answer = extractiveAnswer([RATES], 'How much is it to rent a hybrid for the day?');
    expect(answer.text).toBe('Hybrid: Per hour (2-hour minimum) $16, Full day $55.');
  });

  it("answers a follow-up with the row of the follow-up's own word, not the row asked before", () => {
    const first = 'How much is it to rent a hybrid for the day?';
    const { verdict } = decide(
      { qna_match: null, hits: [RATES], stats: stats(`${first} and an e-bike?`) },
      'and an e-bike?',
      0.34,
      first,
      'Hybrid: Per hour (2-hour minimum) $16, Full day $55',
    );
    expect(verdict.answers).toBe(true);
    expect(verdict.best!.text).toBe(
      'E-bike (Class 1, pedal assist): Per hour (2-hour minimum) $28, Full day $95',
    );
    const { text } = extractive(verdict, [RATES], 3);
    expect(text).toContain('E-bike (Class 1, pedal assist): Per hour (2-hour minimum) $28, Full day $95');
    expect(text).not.toContain('Hybrid');
  });
});

describe('a price list', () => {
  // The page's title names brows and lashes, so every line under it holds "brows" through the title.
  const BEAUTY = hit(
    1,
    'Hair Treatments, Brows, Lashes & Products | Thornfield & Rose',
    [
      '## The beauty room',
      '',
      'Sophie looks after brows and lashes in our beauty room on the first floor.',
      '',
      '- Brow shape (wax and tidy): £15',
      '- Brow tint: £14',
      '- Lash tint: £18',
      '- Lash lift with tint: £48',
    ].join('\n'),
  );
  const first = 'how much is a lash lift';
  const followUp = 'and just getting my brows tinted?';
  const stats = {
    chunks: 40,
    terms: contentWords(`${first} ${followUp}`).map((word) => ({ word, df: 2 })),
  };

  it('moves a follow-up on to the line beside the one quoted, when that line says its own words', () => {
    const { verdict } = decide(
      { qna_match: null, hits: [BEAUTY], stats },
      followUp,
      0.34,
      first,
      'Lash lift with tint: £48.',
    );
    expect(verdict.answers).toBe(true);
    expect(verdict.best!.text).toBe('Brow tint: £14');
    const { text } = extractive(verdict, [BEAUTY], 3);
    expect(text.startsWith('- Brow tint: £14')).toBe(true);
  });

  it('quotes the same line again when nothing beside it says more of the follow-up', () => {
    const { verdict } = decide(
      { qna_match: null, hits: [BEAUTY], stats },
      'and how much is it?',
      0.34,
      'do you do a lash lift',
      'Lash lift with tint: £48.',
    );
    expect(verdict.best!.text).toBe('Lash lift with tint: £48');
  });
});
