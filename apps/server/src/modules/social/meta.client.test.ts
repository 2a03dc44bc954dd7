import { describe, expect, it } from 'vitest';
import { GraphError } from './meta.client.js';

describe("Graph's errors", () => {
  const kindOf = (status: number, code: number | null) => new GraphError('x', status, code, null).kind;

  it('retries throttling, rate limits and outages; never an expired token or a refusal', () => {
    // Graph's app and page throttling, WhatsApp's throughput, pair and account rate limits.
    for (const code of [4, 17, 32, 613, 130429, 131056, 80007]) expect(kindOf(400, code)).toBe('transient');
    expect(kindOf(0, null)).toBe('transient'); // no answer: a time-out, a dropped connection
    expect(kindOf(503, null)).toBe('transient');
    expect(kindOf(401, 190)).toBe('token');
    expect(kindOf(400, 100)).toBe('permanent');
  });
});
