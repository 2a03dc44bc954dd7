import type { Bot } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { knowledgeCount, unusedKnowledge } from './knowledge-defaults';

const bot = (ids: Partial<Pick<Bot, 'file_group_ids' | 'web_source_ids' | 'notion_workspace_ids'>>) =>
  ({ file_group_ids: [], web_source_ids: [], notion_workspace_ids: [], ...ids }) as unknown as Bot;

describe('the knowledge a new bot starts with', () => {
  const available = { file_group_ids: [1, 2], web_source_ids: [7], notion_workspace_ids: [3] };

  it('is everything for a first bot', () => {
    expect(unusedKnowledge(available, [])).toEqual(available);
  });

  it('leaves out what another bot already answers from', () => {
    const existing = [bot({ file_group_ids: [1], notion_workspace_ids: [3] })];
    expect(unusedKnowledge(available, existing)).toEqual({
      file_group_ids: [2],
      web_source_ids: [7],
      notion_workspace_ids: [],
    });
  });

  it('counts the sources', () => {
    expect(knowledgeCount(available)).toBe(4);
    expect(knowledgeCount({ file_group_ids: [], web_source_ids: [], notion_workspace_ids: [] })).toBe(0);
  });
});
