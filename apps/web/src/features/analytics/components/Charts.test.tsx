// @vitest-environment jsdom
import type { AnalyticsOverview } from '@parley/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Charts } from './Charts';

const overview = (answers: AnalyticsOverview['answers']): AnalyticsOverview => ({
  period: { from: '2026-11-03', to: '2026-12-02' },
  bot_id: null,
  levels: { basic: true, advanced: true, dashboard: true },
  conversations: 0,
  messages: 0,
  visitor_messages: 0,
  answers,
  answer_rate: null,
  handoff_requests: 0,
  first_reply_seconds: { mean: null, answered: 0 },
  leads: 0,
  booking_clicks: 0,
  visitors: null,
  daily: [],
});

describe('Charts: who answered', () => {
  afterEach(cleanup);

  it('says there were no answers instead of drawing an axis from 0 to 0', () => {
    render(
      <Charts overview={overview({ bot: 0, not_sure: 0, qna: 0, agents: 0, unanswered: 0, held_back: 0 })} />,
    );
    const region = screen.getByRole('region', { name: 'Who answered' });
    expect(region.textContent).toContain('No answers in this period.');
    expect(region.querySelector('svg.MuiChartsSurface-root')).toBeNull();
  });

  it('draws the bars once anyone answered', () => {
    render(
      <Charts overview={overview({ bot: 3, not_sure: 1, qna: 1, agents: 0, unanswered: 2, held_back: 0 })} />,
    );
    const region = screen.getByRole('region', { name: 'Who answered' });
    expect(region.textContent).not.toContain('No answers in this period.');
    expect(region.querySelector('svg.MuiChartsSurface-root')).not.toBeNull();
  });
});
