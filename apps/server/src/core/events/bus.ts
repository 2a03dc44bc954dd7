import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';

/** pino-compatible subset, so the app's logger can be passed as is. */
export type Logger = {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export type EventBusOptions = {
  /** Identifies this bus in its messages, so it can skip its own NOTIFY echo. */
  origin?: string;
  logger?: Logger;
};

export type EventHandler<T> = (payload: T) => void | Promise<void>;

/** The one PostgreSQL channel every topic travels on. */
export const EVENTS_CHANNEL = 'parley_events';
/** NOTIFY refuses payloads of 8000 bytes or more; keep a margin. */
export const MAX_EVENT_BYTES = 7900;

type Message = { topic: string; payload: unknown; origin: string };

const consoleLogger: Logger = {
  warn: (obj, msg) => console.warn(msg ?? '', obj),
  error: (obj, msg) => console.error(msg ?? '', obj),
};

/**
 * Fan-out of small events to every process on the same database over LISTEN/NOTIFY. Delivery is
 * at most once and only to processes listening at the time: it suits cache invalidation and live
 * updates, not work that must happen (use the job queue for that).
 */
export class EventBus {
  readonly origin: string;
  private readonly logger: Logger;
  private readonly handlers = new Map<string, Set<EventHandler<unknown>>>();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly database: Database,
    options: EventBusOptions = {},
  ) {
    this.origin = options.origin ?? randomUUID();
    this.logger = options.logger ?? consoleLogger;
  }

  /** Starts receiving other processes' events; local delivery works without it. */
  async start(): Promise<void> {
    if (this.unlisten) return;
    this.unlisten = await this.database.listen(EVENTS_CHANNEL, (raw) => this.receive(raw));
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.();
  }

  /**
   * Delivers to this process's subscribers at once, then to the others. Rejects a payload too big
   * for NOTIFY before delivering anywhere, so every process sees the same events.
   */
  async publish<T>(topic: string, payload: T): Promise<void> {
    const message = JSON.stringify({ topic, payload, origin: this.origin } satisfies Message);
    const bytes = Buffer.byteLength(message, 'utf8');
    if (bytes > MAX_EVENT_BYTES) {
      throw new Error(
        `event "${topic}" is ${bytes} bytes, over the ${MAX_EVENT_BYTES}-byte NOTIFY limit; publish an id and load the data instead`,
      );
    }
    this.deliver(topic, payload);
    await this.database.notify(EVENTS_CHANNEL, message);
  }

  /**
   * The NOTIFY of an event as an SQL expression, for the statement that makes the change itself:
   * other processes get it exactly when that change commits (never for one rolled back), with no
   * round trip of its own. `payload` must be a json expression whose text stays under
   * MAX_EVENT_BYTES. This process is not told: call deliverLocally once the change has committed.
   */
  notification(topic: string, payload: SQL): SQL {
    return sql`pg_notify(${EVENTS_CHANNEL}, json_build_object('topic', ${topic}::text, 'origin', ${this.origin}::text, 'payload', ${payload})::text)`;
  }

  /** This process's half of an event whose NOTIFY went out with its change (see notification). */
  deliverLocally<T>(topic: string, payload: T): void {
    this.deliver(topic, payload);
  }

  /** Returns the function that unsubscribes. */
  subscribe<T>(topic: string, handler: EventHandler<T>): () => void {
    let set = this.handlers.get(topic);
    if (!set) {
      set = new Set();
      this.handlers.set(topic, set);
    }
    const entry = handler as EventHandler<unknown>;
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.handlers.get(topic) === set) this.handlers.delete(topic);
    };
  }

  private receive(raw: string): void {
    const message = parseMessage(raw);
    if (!message) {
      this.logger.warn({ raw: raw.slice(0, 200) }, 'events: ignored a malformed message');
      return;
    }
    // Our own NOTIFY comes back to us; publish already delivered it locally.
    if (message.origin === this.origin) return;
    this.deliver(message.topic, message.payload);
  }

  /** A subscriber that throws (or rejects) is logged and does not stop the others. */
  private deliver(topic: string, payload: unknown): void {
    const set = this.handlers.get(topic);
    if (!set) return;
    for (const handler of [...set]) {
      try {
        const result = handler(payload);
        if (result instanceof Promise) result.catch((err: unknown) => this.failed(topic, err));
      } catch (err) {
        this.failed(topic, err);
      }
    }
  }

  private failed(topic: string, err: unknown): void {
    this.logger.error({ err, topic }, 'events: subscriber failed');
  }
}

function parseMessage(raw: string): Message | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return undefined;
    const { topic, payload, origin } = value as Record<string, unknown>;
    if (typeof topic !== 'string' || typeof origin !== 'string') return undefined;
    return { topic, payload, origin };
  } catch {
    return undefined;
  }
}
