/** What time it is: the system's, or a test's that it moves by hand. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
