import type { Bot, LlmSetting } from '@parley/contracts';

/**
 * The line under the bot's name in the playground: what answers. The built-in extractive answerer
 * has no temperature (the bot wizard hides it), so naming one would mislead; a bot with a language
 * model shows the model's name and the temperature it answers with, and a model switched off in the
 * LLM settings says so, since the bot then answers without it. `models`: the workspace's LLM
 * settings, when loaded.
 */
export function playgroundCaption(
  bot: Pick<Bot, 'llm_model' | 'temperature'>,
  models?: Pick<LlmSetting, 'id' | 'name' | 'is_active'>[],
): string {
  if (bot.llm_model === null) return 'Playground · built-in answers';
  const model = models?.find((m) => String(m.id) === bot.llm_model);
  if (!model) return `Playground · temperature ${bot.temperature}`;
  if (!model.is_active) return `Playground · ${model.name} is switched off: built-in answers`;
  return `Playground · ${model.name} · temperature ${bot.temperature}`;
}
