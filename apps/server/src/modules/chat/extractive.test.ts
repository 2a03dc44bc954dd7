import type { SearchHit } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { extractive } from './answer.service.js';

const hit = (documentId: number, title: string, content: string): SearchHit => ({
  chunk_id: documentId * 10,
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
});
