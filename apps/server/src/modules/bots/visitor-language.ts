import { negotiate } from '@fastify/accept-negotiator';
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
  return (await sourceLanguageCountsOf(db, tenantId, botId)).map((row) => row.language);
}

/** sourceLanguagesOf with each language's number of documents. */
export function sourceLanguageCountsOf(db: DbOrTx, tenantId: number, botId: number) {
  return queryRows<{ language: string; documents: number }>(
    db,
    sql`SELECT d.language, count(*)::int AS documents FROM documents d
      JOIN ${botCollections(tenantId, botId)} s ON d.source_type = s.source_type AND d.collection_id = s.collection_id
      WHERE d.tenant_id = ${tenantId}
      GROUP BY d.language ORDER BY count(*) DESC, d.language`,
  );
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

/** The language as one Parley speaks to visitors in, or null (a socket's parameter, a detected language). */
export const asVisitorLanguage = (language: string | null | undefined): VisitorLanguage | null =>
  language && isVisitorLanguage(language) ? language : null;

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
 * widget's language (`widget`) or the bot's visitor language (welcomeIn). Its sources' languages
 * are read only when that must be told.
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
  widget?: VisitorLanguage | null,
): Promise<string> {
  if (!isDefaultWelcome(bot.welcomeMessage)) return bot.welcomeMessage!.trim();
  if (widget) return welcomeIn(bot.welcomeMessage, bot.botName, WIDGET_TEXTS[widget]);
  const sources = bot.visitorLanguage === 'auto' ? await sourceLanguagesOf(db, bot.tenantId, bot.id) : [];
  return welcomeIn(
    bot.welcomeMessage,
    bot.botName,
    WIDGET_TEXTS[visitorLanguageOf(bot.visitorLanguage, sources)],
  );
}

/** A language whose share of a bot's documents is at least this may greet a visitor whose browser prefers it. */
const WIDGET_LANGUAGE_SHARE = 0.2;

/**
 * The language a widget speaks to its visitor in. On auto, a bot whose sources are written in more
 * than one language Parley speaks (a Belgian shop in French and Dutch) speaks the one the visitor's
 * browser prefers (`acceptLanguage`), of those holding at least a fifth of its documents; else, and
 * with the owner's choice, visitorLanguageOf.
 */
export function widgetLanguageOf(
  setting: VisitorLanguage | 'auto',
  sources: readonly { language: string; documents: number }[],
  acceptLanguage: string | undefined,
): VisitorLanguage {
  const fallback = visitorLanguageOf(
    setting,
    sources.map((row) => row.language),
  );
  if (setting !== 'auto' || !acceptLanguage) return fallback;
  const total = sources.reduce((sum, row) => sum + row.documents, 0);
  const offered = new Map(
    sources
      .filter((row) => row.documents >= total * WIDGET_LANGUAGE_SHARE)
      .flatMap((row) =>
        isVisitorLanguage(row.language) ? [[WIDGET_TEXTS[row.language].lang, row.language] as const] : [],
      ),
  );
  if (offered.size < 2) return fallback;
  // "fr-BE,fr;q=0.9,nl;q=0.8": a region's tag counts as its language's.
  const header = acceptLanguage.replace(/([a-z]{2,3})-[a-z0-9-]+/gi, '$1');
  const code = negotiate(header.toLowerCase(), [...offered.keys()]);
  return (code && offered.get(code)) || fallback;
}
