// @vitest-environment jsdom
import type { SearchResult } from '@parley/contracts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../app/store';
import { BrowserRequest, json } from '../../../test/api-stubs';
import { RetrievalPreview } from './RetrievalPreview';

const SHORT: SearchResult = {
  qna_match: null,
  mode: 'full-text',
  languages: ['english'],
  hits: [
    {
      chunk_id: 1,
      document_id: 1,
      source_type: 'web',
      page_title: 'Delivery',
      page_url: 'https://bakery.example/delivery',
      page_number: null,
      heading_path: 'Delivery',
      content: 'We deliver within 5 miles of the bakery.',
      synced_at: null,
      score: 0.5,
      text_rank: 0.5,
      vector_distance: null,
    },
  ],
  decision: {
    answers: false,
    sure: false,
    summary: 'Would not answer: Delivery covers order but nothing covers flat',
    source: 'Delivery',
    coverage: 0.17,
    covered: ['order'],
    missing: ['flat'],
    model_judges: false,
    follows_up: null,
  },
};
/** The same search for a bot whose active model judges the passages (the server says so). */
const JUDGED: SearchResult = {
  ...SHORT,
  decision: {
    ...SHORT.decision,
    summary: 'The words fall short: Delivery covers order but nothing covers flat',
    model_judges: true,
  },
};
const MODEL_NOTE = /model reads these passages and answers only if they say it/;

async function searchFor(result: SearchResult) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => json(result)),
  );
  render(
    <Provider store={makeStore()}>
      <RetrievalPreview botId={4} />
    </Provider>,
  );
  fireEvent.change(screen.getByLabelText('Question'), { target: { value: 'can my order come to my flat?' } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  await screen.findByLabelText('What the bot would do');
}

describe('RetrievalPreview', () => {
  beforeEach(() => {
    vi.stubGlobal('Request', BrowserRequest);
    localStorage.setItem('accessToken', 'token');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("says a bot's model still reads passages whose words fall short", async () => {
    await searchFor(JUDGED);
    expect(screen.getByText(MODEL_NOTE)).toBeTruthy();
    expect(
      screen.getByText('The words fall short: Delivery covers order but nothing covers flat'),
    ).toBeTruthy();
  }, 20_000);

  it('says nothing of a model when the server says none judges', async () => {
    await searchFor(SHORT);
    expect(screen.queryByText(MODEL_NOTE)).toBeNull();
    expect(screen.getByText(SHORT.decision.summary)).toBeTruthy();
    expect(screen.getByText(/Add a page or a Q&A pair that says it/)).toBeTruthy();
  }, 20_000);

  it('tells the owner when the bot would answer but say it is not sure, and what makes it sure', async () => {
    await searchFor({
      ...SHORT,
      decision: {
        ...SHORT.decision,
        answers: true,
        summary:
          'Would answer from Delivery, but say it is not sure and offer a person: covers order, not flat',
      },
    });
    expect(
      screen.getByText(/says it is not sure, because they hold less than half of the question/),
    ).toBeTruthy();
    expect(screen.queryByText(/Add a page or a Q&A pair that says it/)).toBeNull();
  }, 20_000);

  it('gives no advice when the bot would answer surely', async () => {
    await searchFor({
      ...SHORT,
      decision: {
        ...SHORT.decision,
        answers: true,
        sure: true,
        summary: 'Would answer from Delivery: covers order',
      },
    });
    expect(screen.getByText('Would answer from Delivery: covers order')).toBeTruthy();
    expect(screen.queryByText(/not sure|Add a page/)).toBeNull();
  }, 20_000);

  it("names the languages the bot's sources are read in", async () => {
    await searchFor({ ...SHORT, languages: ['english', 'spanish'] });
    expect(screen.getByText(/Read in English and Spanish/)).toBeTruthy();
  }, 20_000);

  it('searches a question of the conversation at once, as the follow-up the bot read, and says so', async () => {
    const fetch = vi.fn(async (_request: Request) =>
      json({
        ...SHORT,
        decision: {
          ...SHORT.decision,
          answers: true,
          sure: true,
          summary: 'Would answer from Opening hours: covers sunday',
          follows_up: 'When do you open on Saturday?',
        },
      }),
    );
    vi.stubGlobal('fetch', fetch);
    const asked = {
      query: 'and on Sunday?',
      previousQuestion: 'When do you open on Saturday?',
      previousAnswer: 'Saturday: 8 am – 4 pm',
    };
    render(
      <Provider store={makeStore()}>
        <RetrievalPreview botId={4} asked={asked} />
      </Provider>,
    );
    await screen.findByText('Read as a follow-up of “When do you open on Saturday?”');
    expect((screen.getByLabelText('Question') as HTMLInputElement).value).toBe('and on Sunday?');
    const sent = await fetch.mock.calls[0]![0].json();
    expect(sent).toMatchObject({
      query: 'and on Sunday?',
      previous_question: 'When do you open on Saturday?',
      previous_answer: 'Saturday: 8 am – 4 pm',
    });
  }, 20_000);
});
