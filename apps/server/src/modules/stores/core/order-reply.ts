import type { AnswerInput } from '../../chat/answer.service.js';
import type { OrderHelp } from './order-help.js';

/** The chat's question to the order help: the bot's stores and what the visitor said before. */
export function orderReply(orders: OrderHelp, input: AnswerInput): Promise<string | null> {
  const { bot, history } = input;
  const storeIds = [bot.shopifyStoreId, bot.woocommerceStoreId].filter((id): id is number => id !== null);
  if (storeIds.length === 0) return Promise.resolve(null);
  const lastBot = [...history].reverse().find((m) => m.messageType === 'bot');
  return orders.reply({
    tenantId: bot.tenantId,
    storeIds,
    conversationId: input.conversationId,
    question: input.question,
    earlier: history.filter((m) => m.messageType === 'user').map((m) => m.message),
    lastBotMessage: lastBot?.message ?? null,
  });
}
