import { describe, expect, it } from 'vitest';
import { KeyedSerial } from './keyed-serial.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedSerial', () => {
  it('runs one key’s tasks in order, other keys alongside, past a failure', async () => {
    const serial = new KeyedSerial();
    const seen: string[] = [];
    const task =
      (name: string, ms: number, fail = false) =>
      async () => {
        await tick(ms);
        seen.push(name);
        if (fail) throw new Error(name);
        return name;
      };
    const a1 = serial.run('a', task('a1', 30, true));
    const a2 = serial.run('a', task('a2', 1));
    const b1 = serial.run('b', task('b1', 5));
    await expect(a1).rejects.toThrow('a1');
    expect(await a2).toBe('a2');
    expect(await b1).toBe('b1');
    expect(seen).toEqual(['b1', 'a1', 'a2']);
  });
});
