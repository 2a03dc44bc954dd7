import {
  isDefaultWelcome,
  VISITOR_LANGUAGES,
  type VisitorLanguage,
  WIDGET_TEXTS,
  welcomeIn,
} from '@parley/contracts';
import { type DbOrTx, queryRows, sql } from '../../core/db/database.js';

/**
 * The languages a bot's sources are written in, most documents first: its documents' (each told at
 * training, knowledge/languages.ts), over the collections it is given (file groups, web sources,
 * Notion workspaces, stores, its own Q&A).
 */
export async function sourceLanguagesOf(db: DbOrTx, tenantId: number, botId: number): Promise<string[]> {
  const rows = await queryRows<{ language: string }>(
    db,
    sql`SELECT d.language FROM documents d
      JOIN ${botCollections(tenantId, botId)} s ON d.source_type = s.source_type AND d.collection_id = s.collection_id
      WHERE d.tenant_id = ${tenantId}
      GROUP BY d.language ORDER BY count(*) DESC, d.language`,
  );
  return rows.map((row) => row.language);
}

/**
 * The collections a bot is given, as rows (source_type, collection_id): its file groups, web
 * sources, Notion workspaces, stores, and its own Q&A (collection: the bot itself).
 */
export const botCollections = (tenantId: number, botId: number) =>
  sql`(SELECT 'file' AS source_type, file_group_id AS collection_id FROM bot_file_groups WHERE tenant_id = ${tenantId} AND bot_id = ${botId}
    UNION ALL SELECT 'web', web_source_id FROM bot_web_sources WHERE tenant_id = ${tenantId} AND bot_id = ${botId}
    UNION ALL SELECT 'notion', notion_workspace_id FROM bot_notion_workspaces WHERE tenant_id = ${tenantId} AND bot_id = ${botId}
    UNION ALL SELECT 'store', store_id FROM bots CROSS JOIN LATERAL (VALUES (shopify_store_id), (woocommerce_store_id)) AS linked(store_id)
      WHERE tenant_id = ${tenantId} AND id = ${botId} AND store_id IS NOT NULL
    UNION ALL SELECT 'qna', ${botId}::int)`;

export const isVisitorLanguage = (language: string): language is VisitorLanguage =>
  (VISITOR_LANGUAGES as readonly string[]).includes(language);

/**
 * The language a bot speaks to visitors in: the owner's choice, or, on `auto`, the language most
 * of its sources are written in (`sourceLanguages` come most documents first) when Parley speaks
 * it to visitors; else English.
 */
export function visitorLanguageOf(
  setting: VisitorLanguage | 'auto',
  sourceLanguages: readonly string[],
): VisitorLanguage {
  if (setting !== 'auto') return setting;
  const [most] = sourceLanguages;
  return most && isVisitorLanguage(most) ? most : 'english';
}

/**
 * What a bot greets a new conversation with: the owner's own welcome, or the default one in the
 * bot's visitor language (welcomeIn). Its sources' languages are read only when that must be told.
 */
export async function visitorWelcomeOf(
  db: DbOrTx,
  bot: {
    tenantId: number;
    id: number;
    botName: string;
    welcomeMessage: string | null;
    visitorLanguage: VisitorLanguage | 'auto';
  },
): Promise<string> {
  if (!isDefaultWelcome(bot.welcomeMessage)) return bot.welcomeMessage!.trim();
  const sources = bot.visitorLanguage === 'auto' ? await sourceLanguagesOf(db, bot.tenantId, bot.id) : [];
  return welcomeIn(
    bot.welcomeMessage,
    bot.botName,
    WIDGET_TEXTS[visitorLanguageOf(bot.visitorLanguage, sources)],
  );
}
