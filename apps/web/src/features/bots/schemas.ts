import { BotInput } from '@parley/contracts';
import type { SchemaOutput } from '../../shared/lib/form';

/**
 * The parts of BotInput each screen edits, so the browser checks them with the server's own rules
 * and texts, and a tab's PUT carries only the fields it owns.
 */
export const DetailsFields = BotInput.pick({ bot_name: true, description: true });
export type DetailsFields = SchemaOutput<typeof DetailsFields>;

export const InstructionsFields = BotInput.pick({
  prompt: true,
  llm_model: true,
  temperature: true,
  internet: true,
  max_citations: true,
  human_button: true,
  handoff_confidence: true,
  analytics: true,
});
export type InstructionsFields = SchemaOutput<typeof InstructionsFields>;

export const AppearanceFields = BotInput.pick({
  bot_name: true,
  description: true,
  brand_color: true,
  welcome_message: true,
  visitor_language: true,
  suggestion_questions: true,
  lead_form_config: true,
  is_public: true,
});
export type AppearanceFields = SchemaOutput<typeof AppearanceFields>;

/** The knowledge a bot answers from. */
export type KnowledgeIds = Pick<BotInput, 'file_group_ids' | 'web_source_ids' | 'notion_workspace_ids'>;

export const NO_KNOWLEDGE: KnowledgeIds = {
  file_group_ids: [],
  web_source_ids: [],
  notion_workspace_ids: [],
};
