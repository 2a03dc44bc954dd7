import type { SearchHit } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
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

describe('extractive answers', () => {
  it('always quote and cite the page ranked first, even when later pages share more words', () => {
    const answer = extractive(
      [
        hit(
          1,
          'Hooks',
          'Hooks are functions a plugin registers with the framework. They take two arguments.',
        ),
        hit(
          2,
          'Lifecycle',
          'The request lifecycle runs hooks in order on the server. Each request on the server passes the lifecycle hooks in order.',
        ),
        hit(
          3,
          'Reply',
          'A reply ends the request lifecycle on the server in order. The server runs the hooks of the request lifecycle in order.',
        ),
      ],
      'in which order does the request lifecycle run hooks on the server',
      3,
    );
    expect(answer.sources.map((s) => s.page_title)).toContain('Hooks');
    expect(answer.sources[0]!.page_title).toBe('Hooks');
    expect(answer.text).toContain('Hooks are functions a plugin registers');
    expect(answer.sources.length).toBeLessThanOrEqual(3);
  });

  it('quote whole sentences that the source wraps over lines, and never code', () => {
    const answer = extractive(
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
      3,
    );
    expect(answer.text).toContain(
      'If you are using the `preParsing` hook, you can transform the request payload stream before it is parsed.',
    );
    expect(answer.text).not.toContain('Register the hook');
    expect(answer.text).not.toMatch(/^stream before/);
  });

  it('read every passage found of a page, and cite the page when its second passage answers', () => {
    const answer = extractive(
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
      3,
    );
    expect(answer.sources[0]!.page_title).toBe('Hooks');
    expect(answer.text).toContain('The preParsing hook runs before the body is parsed');
  });

  it('read a list item as a sentence of its own, not glued to the line before', () => {
    const answer = extractive(
      [
        hit(
          1,
          'Install',
          'Install it with one of these commands:\n- npm install the package from the registry.\n- yarn add the package to the project.',
        ),
      ],
      'how do I install the package with npm',
      3,
    );
    expect(answer.text).toContain('npm install the package from the registry.');
    expect(answer.text).not.toContain('- npm');
  });

  it('keep a link or an abbreviation inside its sentence, and skip a list of links', () => {
    const answer = extractive(
      [
        hit(
          1,
          'Hooks',
          [
            '- [Hooks](#hooks) - [Lifecycle](#lifecycle) - [Close](#close) - [Plugins](#plugins).',
            'Use [`onClose` hooks](../Reference/Plugins.md) to release database connection pools when the server closes.',
            'Pass a timeout (e.g. Use 5 seconds) when the database connection pools close slowly.',
          ].join('\n'),
        ),
      ],
      'how do I release database connection pools when the server closes',
      3,
    );
    expect(answer.text).toContain(
      'Use [`onClose` hooks](../Reference/Plugins.md) to release database connection pools when the server closes.',
    );
    expect(answer.text).toContain(
      'Pass a timeout (e.g. Use 5 seconds) when the database connection pools close slowly.',
    );
    expect(answer.text).not.toContain('[Lifecycle](#lifecycle)');
  });
});
