import type { Bot } from '@parley/contracts';
import type { KnowledgeIds } from './schemas';

type Available = { file_group_ids: number[]; web_source_ids: number[]; notion_workspace_ids: number[] };

/**
 * What the wizard ticks before the owner touches the Knowledge step: every source no bot answers
 * from yet, i.e. what the owner just made for the bot being built (a first bot gets everything).
 * Sources another bot already uses stay unticked, so a second bot does not inherit the first one's.
 */
export function unusedKnowledge(available: Available, bots: readonly Bot[]): KnowledgeIds {
  const used = (pick: (bot: Bot) => number[]) => new Set(bots.flatMap(pick));
  const groups = used((b) => b.file_group_ids);
  const sources = used((b) => b.web_source_ids);
  const notion = used((b) => b.notion_workspace_ids);
  return {
    file_group_ids: available.file_group_ids.filter((id) => !groups.has(id)),
    web_source_ids: available.web_source_ids.filter((id) => !sources.has(id)),
    notion_workspace_ids: available.notion_workspace_ids.filter((id) => !notion.has(id)),
  };
}

/** How many sources a bot would answer from. */
export const knowledgeCount = (k: KnowledgeIds): number =>
  k.file_group_ids.length + k.web_source_ids.length + k.notion_workspace_ids.length;
