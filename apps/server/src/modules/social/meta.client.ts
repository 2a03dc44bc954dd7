/**
 * Meta's Graph API as Parley uses it (Facebook Login, Pages, the Messenger Platform's Send API,
 * which also sends Instagram messages through the linked page). `META_GRAPH_URL` points it at
 * Meta (a pinned version) or, in tests, at the fake on loopback (test/fakes/meta-graph.ts).
 */
export type GraphPage = {
  id: string;
  name: string;
  access_token: string;
  instagram_business_account?: { id: string; username?: string };
};

export type GraphProfile = {
  name?: string;
  first_name?: string;
  last_name?: string;
  username?: string;
  profile_pic?: string;
};

export type SendBody =
  | {
      recipient: { id: string };
      messaging_type: 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG';
      tag?: 'HUMAN_AGENT';
      message: { text: string; quick_replies?: QuickReply[] };
    }
  | { recipient: { id: string }; sender_action: 'typing_on' | 'typing_off' | 'mark_seen' };

/** A quick reply under a text (at most 13; the title is cut at 20 characters, the payload at 1,000). */
export type QuickReply = { content_type: 'text'; title: string; payload: string };

/** What a failed call means for whoever retries it. */
export type GraphFailure = 'transient' | 'token' | 'window' | 'permanent';

/** A Graph error (`{ error: { message, code, error_subcode } }`) or a network failure. */
export class GraphError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
    readonly subcode: number | null,
  ) {
    super(message);
  }

  /** Throttling and temporary errors are retried; a dead token, a closed window or a block are not. */
  get kind(): GraphFailure {
    if (this.code === 190 || this.code === 102) return 'token';
    if ((this.code === 10 && this.subcode === 2018278) || this.code === WHATSAPP_WINDOW) return 'window';
    if (this.status === 0 || this.status >= 500) return 'transient';
    if (this.code !== null && TRANSIENT_CODES.has(this.code)) return 'transient';
    return 'permanent';
  }
}

/**
 * Graph's throttling (4, 17, 32, 613, 80006...) and "temporary, retry later" codes (1, 2); the
 * WhatsApp Cloud API's throughput and pair rate limits (130429, 131056), its business account's
 * rate limit (80007), service unavailable (131016) and number in maintenance (131057).
 */
const TRANSIENT_CODES = new Set([
  1, 2, 4, 17, 32, 341, 613, 80001, 80002, 80006, 80007, 130429, 131016, 131056, 131057,
]);
/** WhatsApp: more than 24 hours since the customer wrote ("re-engagement message"). */
const WHATSAPP_WINDOW = 131047;
const TIMEOUT_MS = 15_000;

export class MetaClient {
  constructor(private readonly options: { graphUrl: string; appId?: string; appSecret?: string }) {}

  /** The authorization code of Facebook Login → a short-lived user token → a long-lived one. */
  async userTokenFor(code: string, redirectUri: string): Promise<string> {
    const short = await this.get<{ access_token?: string }>('/oauth/access_token', {
      client_id: this.options.appId ?? '',
      client_secret: this.options.appSecret ?? '',
      redirect_uri: redirectUri,
      code,
    });
    if (!short.access_token) throw new GraphError('no access token in the answer', 200, null, null);
    const long = await this.get<{ access_token?: string }>('/oauth/access_token', {
      grant_type: 'fb_exchange_token',
      client_id: this.options.appId ?? '',
      client_secret: this.options.appSecret ?? '',
      fb_exchange_token: short.access_token,
    });
    return long.access_token ?? short.access_token;
  }

  /** The pages the person granted, each with its page token and linked Instagram account. */
  async pages(userToken: string): Promise<GraphPage[]> {
    const answer = await this.get<{ data?: GraphPage[] }>('/me/accounts', {
      fields: 'id,name,access_token,instagram_business_account{id,username}',
      access_token: userToken,
    });
    return answer.data ?? [];
  }

  /** One page read with its own token: checks a pasted page token belongs to that page. */
  async page(pageId: string, pageToken: string): Promise<Omit<GraphPage, 'access_token'>> {
    return this.get(`/${encodeURIComponent(pageId)}`, {
      fields: 'id,name,instagram_business_account{id,username}',
      access_token: pageToken,
    });
  }

  subscribe(pageId: string, pageToken: string, fields: readonly string[]): Promise<unknown> {
    return this.call('POST', `/${encodeURIComponent(pageId)}/subscribed_apps`, {
      subscribed_fields: fields.join(','),
      access_token: pageToken,
    });
  }

  unsubscribe(pageId: string, pageToken: string): Promise<unknown> {
    return this.call('DELETE', `/${encodeURIComponent(pageId)}/subscribed_apps`, { access_token: pageToken });
  }

  /** A Messenger or Instagram user's public profile, read with the page's token. */
  profile(userId: string, pageToken: string, channel: 'instagram' | 'messenger'): Promise<GraphProfile> {
    return this.get(`/${encodeURIComponent(userId)}`, {
      fields: channel === 'instagram' ? 'name,username,profile_pic' : 'first_name,last_name,profile_pic',
      access_token: pageToken,
    });
  }

  /** The Send API: a message or a sender action (typing) to one user of the page. */
  send(pageId: string, pageToken: string, body: SendBody): Promise<{ message_id?: string }> {
    return this.call(
      'POST',
      `/${encodeURIComponent(pageId)}/messages`,
      { access_token: pageToken },
      body,
    ) as Promise<{
      message_id?: string;
    }>;
  }

  private get<T>(path: string, query: Record<string, string>): Promise<T> {
    return this.call('GET', path, query) as Promise<T>;
  }

  private async call(method: string, path: string, query: Record<string, string>, body?: unknown) {
    const url = new URL(`${this.options.graphUrl.replace(/\/+$/, '')}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new GraphError(`Graph API unreachable: ${(error as Error).message}`, 0, null, null);
    }
    const answer = (await response.json().catch(() => ({}))) as {
      error?: { message?: string; code?: number; error_subcode?: number };
    };
    if (!response.ok || answer.error) {
      const error = answer.error ?? {};
      throw new GraphError(
        error.message ?? `Graph API answered ${response.status}`,
        response.status,
        error.code ?? null,
        error.error_subcode ?? null,
      );
    }
    return answer as unknown;
  }
}
