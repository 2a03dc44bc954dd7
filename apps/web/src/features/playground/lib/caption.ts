import type { Bot } from '@parley/contracts';

/**
 * The line under the bot's name in the playground. The built-in extractive answerer has no
 * temperature (the bot wizard hides it), so naming one would mislead; a bot with a language model
 * shows the temperature it answers with.
 */
export function playgroundCaption(bot: Pick<Bot, 'llm_model' | 'temperature'>): string {
  return bot.llm_model === null
    ? 'Playground · built-in answers'
    : `Playground · temperature ${bot.temperature}`;
}
