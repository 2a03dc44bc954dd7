import type { LlmSetting } from '@parley/contracts';

export const BUILT_IN_MODEL = 'Built-in (answers by quoting your sources)';

/** The name of a bot's model: Built-in when none is set, else the LLM setting's name. */
export function modelLabel(llmModel: string | null, llms: readonly LlmSetting[]): string {
  if (llmModel === null || llmModel === '') return 'Built-in';
  const setting = llms.find((llm) => String(llm.id) === llmModel);
  return setting ? setting.name : `Model ${llmModel}`;
}
