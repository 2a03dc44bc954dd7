import { eq } from 'drizzle-orm';
import type { Db } from '../../core/db/database.js';
import { notFound } from '../../core/errors.js';
import type { EventBus } from '../../core/events/bus.js';
import type { ModuleDeps } from '../../core/module.js';
import type { BotRow } from './bots.queries.js';
import { bots } from './bots.schema.js';

/** A bot's row or settings changed, or the bot is gone (every bot of the tenant when no botId). */
export const BOT_CHANGED = 'bot.changed';
export type BotChanged = { tenantId?: number; botId?: number };

type Entry = { bot: BotRow; expiresAt: number; derived?: Map<string, unknown> };

/**
 * Bots as the chat reads them on every message (by id, and by uuid for widget visitors), kept in
 * memory: a message should not wait for a row that changes a few times a month. Whoever changes or
 * deletes a bot calls `changed`, which empties the entry on every node over the event bus (this
 * node at once); the time limit bounds what a missed NOTIFY could leave stale.
 */
export class BotCache {
  private readonly byId = new Map<number, Entry>();
  private readonly idByUuid = new Map<string, number>();
  /** Bumped on every change, so a load that raced with a change is not kept. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {
    events.subscribe<BotChanged>(BOT_CHANGED, ({ tenantId, botId }) => {
      if (botId !== undefined) this.forget(botId);
      else if (tenantId !== undefined) this.forgetTenant(tenantId);
    });
  }

  /** The tenant's bot, or 404 'Bot not found' (another tenant's bot does not exist for the caller). */
  async require(tenantId: number, botId: number): Promise<BotRow> {
    const cached = this.fresh(botId);
    const bot = cached === undefined ? await this.load(eq(bots.id, botId)) : cached;
    if (!bot || bot.tenantId !== tenantId) throw notFound('Bot not found');
    return bot;
  }

  async byUuid(uuid: string): Promise<BotRow | null> {
    const id = this.idByUuid.get(uuid);
    const cached = id === undefined ? undefined : this.fresh(id);
    return cached === undefined ? this.load(eq(bots.uuid, uuid)) : cached;
  }

  /**
   * A value the chat derives from a bot's settings in other tables (its booking, its model), kept with
   * the bot's entry and emptied with it: whoever changes it calls `changed` too.
   */
  async derived<T>(bot: BotRow, key: string, load: () => Promise<T>): Promise<T> {
    const entry = this.byId.get(bot.id);
    if (entry?.derived?.has(key)) return entry.derived.get(key) as T;
    const generation = this.generation;
    const value = await load();
    const current = this.byId.get(bot.id);
    if (current && generation === this.generation) {
      current.derived ??= new Map();
      current.derived.set(key, value);
    }
    return value;
  }

  /** Tells every node (this one first) that the bot changed or was deleted. */
  async changed(botId: number): Promise<void> {
    await this.events.publish<BotChanged>(BOT_CHANGED, { botId });
  }

  /** Something every bot of the tenant may use changed (a language model setting). */
  async tenantChanged(tenantId: number): Promise<void> {
    await this.events.publish<BotChanged>(BOT_CHANGED, { tenantId });
  }

  private fresh(botId: number): BotRow | undefined {
    const entry = this.byId.get(botId);
    if (!entry || entry.expiresAt <= Date.now()) return undefined;
    return entry.bot;
  }

  private async load(where: ReturnType<typeof eq>): Promise<BotRow | null> {
    const generation = this.generation;
    const [bot] = await this.db.select().from(bots).where(where);
    if (bot && generation === this.generation) this.remember(bot);
    return bot ?? null;
  }

  private remember(bot: BotRow): void {
    if (this.byId.size >= this.maxEntries) this.evictOldest();
    this.byId.set(bot.id, { bot, expiresAt: Date.now() + this.ttlMs });
    this.idByUuid.set(bot.uuid, bot.id);
  }

  private evictOldest(): void {
    const oldest = this.byId.entries().next().value;
    if (!oldest) return;
    this.byId.delete(oldest[0]);
    this.idByUuid.delete(oldest[1].bot.uuid);
  }

  private forget(botId: number): void {
    this.generation += 1;
    const entry = this.byId.get(botId);
    if (entry) this.idByUuid.delete(entry.bot.uuid);
    this.byId.delete(botId);
  }

  private forgetTenant(tenantId: number): void {
    for (const [botId, entry] of this.byId) if (entry.bot.tenantId === tenantId) this.forget(botId);
  }
}

const caches = new WeakMap<ModuleDeps, BotCache>();

/** The process's one bot cache (shared by the bots, chat, help-desk and LLM modules). */
export function botCacheOf(deps: ModuleDeps): BotCache {
  let cache = caches.get(deps);
  if (!cache) {
    cache = new BotCache(deps.db, deps.events);
    caches.set(deps, cache);
  }
  return cache;
}
