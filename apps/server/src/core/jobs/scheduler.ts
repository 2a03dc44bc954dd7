import type { Clock } from '../clock.js';
import type { Logger } from './queue.js';

/**
 * One periodic task: enqueues the work that is due at `now`. It runs on every worker process, so it
 * must claim what it enqueues under a row lock (FOR UPDATE SKIP LOCKED) and move the row's next due
 * time in the same transaction: then one process enqueues each run, however many tick.
 */
export type ScheduledTask = (now: Date) => Promise<unknown>;

export type SchedulerOptions = { tickMs: number; clock: Clock; logger: Logger };

/** Runs the registered tasks every `tickMs` in worker processes; a tick never overlaps the previous one. */
export class Scheduler {
  private readonly tasks = new Map<string, ScheduledTask>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(private readonly options: SchedulerOptions) {}

  register(name: string, task: ScheduledTask): void {
    this.tasks.set(name, task);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** Runs every task once at the clock's time (a tick already running is left to finish instead). */
  tick(): Promise<void> {
    this.ticking ??= this.runTasks().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async runTasks(): Promise<void> {
    const now = this.options.clock.now();
    for (const [name, task] of this.tasks) {
      try {
        await task(now);
      } catch (err) {
        // A database hiccup must not stop the scheduler: the next tick tries again.
        this.options.logger.error({ err, task: name }, 'scheduler: task failed');
      }
    }
  }
}
