/**
 * The evaluation's HTTP client: everything it does to a Parley server goes through the public API,
 * so the same code drives this release and an earlier one (eval-release.ts).
 */
type Session = { access_token: string; user: { id: number } };
/** Each run has a database of its own, so one owner's address serves them all. */
const OWNER = { email: 'eval-owner@example.com', password: 'evaluate-the-answers-42' };

export class EvalApi {
  constructor(
    readonly base: string,
    private readonly token: string | null = null,
  ) {}

  /** Signs a new owner up (a fresh workspace): a client acting as them, and their user id. */
  static async signUp(base: string): Promise<{ api: EvalApi; userId: number }> {
    const reply = await new EvalApi(base).call<Session>('POST', '/auth/signup', {
      first_name: 'Eval',
      last_name: 'Runner',
      email: OWNER.email,
      password: OWNER.password,
      company_name: 'Eval',
    });
    return { api: new EvalApi(base, reply.access_token), userId: reply.user.id };
  }

  /** The owner signed up earlier, signed in again (to a restarted server on the same database). */
  static async logIn(base: string): Promise<EvalApi> {
    const reply = await new EvalApi(base).call<Session>('POST', '/auth/login', OWNER);
    return new EvalApi(base, reply.access_token);
  }

  /** JSON in and out (or a multipart form); anything but 2xx throws with the server's text. */
  async call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const form = body instanceof FormData;
    const response = await fetch(`${this.base}/api${route}`, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** Polls a background job (GET /api/jobs/:id) until it completes; a failed job throws. */
  async waitForJob(jobId: string): Promise<void> {
    for (;;) {
      const job = await this.call<{ status: string; error: string | null }>('GET', `/jobs/${jobId}`);
      if (job.status === 'completed') return;
      if (job.status === 'failed') throw new Error(`job ${jobId} failed: ${job.error}`);
      await sleep(500);
    }
  }

  /** A bot answering from the given sources, made as the bot wizard makes it. */
  async createBot(name: string, sources: { file_group_ids?: number[]; web_source_ids?: number[] }) {
    const form = new FormData();
    form.set('bot_name', name);
    for (const [key, ids] of Object.entries(sources)) form.set(key, JSON.stringify(ids));
    return (await this.call<{ bot_id: number }>('POST', '/chat/bots', form)).bot_id;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
