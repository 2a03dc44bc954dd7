/**
 * Runs the tasks of one key one after another, in the order they were given, within this process;
 * tasks of different keys run side by side. A failed task does not stop the ones after it.
 */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(task);
    this.tails.set(key, mine);
    const forget = () => {
      if (this.tails.get(key) === mine) this.tails.delete(key);
    };
    mine.then(forget, forget);
    return mine;
  }
}
