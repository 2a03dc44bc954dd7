import type { LlmSetting } from '@parley/contracts';
import { useCompanyLlmsQuery } from '../../llm/api';

/** The tenant's LLM settings for pickers and labels (an empty list while loading or on failure). */
export function useCompanyModels(): LlmSetting[] {
  const llms = useCompanyLlmsQuery();
  return llms.data ?? [];
}
