import { GraphError } from '../social/meta.client.js';

/**
 * The WhatsApp Cloud API and the Graph calls around it (embedded signup's code exchange, the
 * business account's numbers, templates, resumable uploads), with Graph's error JSON read into a
 * GraphError (its `kind` says whether to retry). `META_GRAPH_URL` points it at Meta or, in tests,
 * at the fake on loopback (test/fakes/whatsapp-cloud.ts).
 */
export type CloudNumber = {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
};

export type CloudTemplate = {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason?: string | null;
  components?: Record<string, unknown>[];
};

/** A reply button (at most 3 on a message; title at most 20 characters, id at most 256). */
export type CloudReplyButton = { type: 'reply'; reply: { id: string; title: string } };

export type CloudMessage =
  | { type: 'text'; text: { body: string; preview_url?: boolean } }
  | {
      type: 'interactive';
      interactive: { type: 'button'; body: { text: string }; action: { buttons: CloudReplyButton[] } };
    }
  | {
      type: 'template';
      template: { name: string; language: { code: string }; components?: Record<string, unknown>[] };
    };

const TIMEOUT_MS = 15_000;
const DOWNLOAD_TIMEOUT_MS = 60_000;

export type CloudMediaInfo = { url?: string; mime_type?: string; file_size?: number; id?: string };

/** A customer's file larger than Parley keeps: described in the conversation, not stored. */
export class MediaTooLarge extends Error {
  constructor() {
    super('The file is too large to keep');
  }
}

export class CloudClient {
  constructor(private readonly options: { graphUrl: string; appId?: string; appSecret?: string }) {}

  /** Embedded signup's code → a business integration system user token (long-lived). */
  async exchangeCode(code: string, redirectUri?: string): Promise<string> {
    const answer = await this.call<{ access_token?: string }>('GET', '/oauth/access_token', null, {
      client_id: this.options.appId ?? '',
      client_secret: this.options.appSecret ?? '',
      code,
      ...(redirectUri ? { redirect_uri: redirectUri } : {}),
    });
    if (!answer.access_token) throw new GraphError('no access token in the answer', 200, null, null);
    return answer.access_token;
  }

  number(phoneNumberId: string, token: string): Promise<CloudNumber> {
    return this.call('GET', `/${phoneNumberId}`, token, {
      fields: 'display_phone_number,verified_name,quality_rating',
    });
  }

  async numbersOf(wabaId: string, token: string): Promise<CloudNumber[]> {
    const answer = await this.call<{ data?: CloudNumber[] }>('GET', `/${wabaId}/phone_numbers`, token, {
      fields: 'id,display_phone_number,verified_name,quality_rating',
    });
    return answer.data ?? [];
  }

  /** Registers the number for the Cloud API with a two-step verification PIN. */
  register(phoneNumberId: string, token: string, pin: string): Promise<unknown> {
    return this.call('POST', `/${phoneNumberId}/register`, token, {}, { messaging_product: 'whatsapp', pin });
  }

  subscribe(wabaId: string, token: string): Promise<unknown> {
    return this.call('POST', `/${wabaId}/subscribed_apps`, token);
  }

  unsubscribe(wabaId: string, token: string): Promise<unknown> {
    return this.call('DELETE', `/${wabaId}/subscribed_apps`, token);
  }

  /** A message to one customer; `callback` comes back on its status webhooks (biz_opaque_callback_data). */
  async send(
    phoneNumberId: string,
    token: string,
    to: string,
    message: CloudMessage,
    callback?: string,
  ): Promise<string> {
    const answer = await this.call<{ messages?: Array<{ id?: string }> }>(
      'POST',
      `/${phoneNumberId}/messages`,
      token,
      {},
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        ...message,
        ...(callback ? { biz_opaque_callback_data: callback } : {}),
      },
    );
    const id = answer.messages?.[0]?.id;
    if (!id) throw new GraphError('no message id in the answer', 200, null, null);
    return id;
  }

  /** Marks the customer's message read (blue ticks) and shows "typing…" until the answer or 25 s. */
  markRead(phoneNumberId: string, token: string, messageId: string, typing: boolean): Promise<unknown> {
    return this.call(
      'POST',
      `/${phoneNumberId}/messages`,
      token,
      {},
      {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: messageId,
        ...(typing ? { typing_indicator: { type: 'text' } } : {}),
      },
    );
  }

  /** A customer's media: where to download it (valid for five minutes), its type and size. */
  mediaInfo(mediaId: string, token: string): Promise<CloudMediaInfo> {
    return this.call('GET', `/${encodeURIComponent(mediaId)}`, token);
  }

  /**
   * The bytes behind a media URL (it needs the token too), refused past `maxBytes`: the declared
   * length is checked first, then what arrives, so a lying server cannot fill the disk.
   */
  async download(url: string, token: string, maxBytes: number): Promise<Buffer> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
      });
    } catch (error) {
      throw new GraphError(`WhatsApp media unreachable: ${(error as Error).message}`, 0, null, null);
    }
    if (!response.ok || !response.body)
      throw new GraphError(`WhatsApp media answered ${response.status}`, response.status, null, null);
    if (Number(response.headers.get('content-length') ?? 0) > maxBytes) throw new MediaTooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.length;
      if (size > maxBytes) {
        await reader.cancel();
        throw new MediaTooLarge();
      }
      chunks.push(Buffer.from(read.value));
    }
    return Buffer.concat(chunks);
  }

  createTemplate(
    wabaId: string,
    token: string,
    template: { name: string; language: string; category: string; components: Record<string, unknown>[] },
  ): Promise<{ id: string; status?: string; category?: string }> {
    return this.call('POST', `/${wabaId}/message_templates`, token, {}, template);
  }

  /** Every template of the business account, following Graph's cursor paging up to `limit`. */
  async templates(wabaId: string, token: string, limit: number): Promise<CloudTemplate[]> {
    const found: CloudTemplate[] = [];
    let after: string | undefined;
    do {
      const page = await this.call<{
        data?: CloudTemplate[];
        paging?: { cursors?: { after?: string }; next?: string };
      }>('GET', `/${wabaId}/message_templates`, token, {
        fields: 'id,name,language,category,status,rejected_reason,components',
        limit: String(Math.min(100, limit - found.length)),
        ...(after ? { after } : {}),
      });
      found.push(...(page.data ?? []));
      after = page.paging?.next ? page.paging.cursors?.after : undefined;
    } while (after && found.length < limit);
    return found;
  }

  deleteTemplate(wabaId: string, token: string, name: string, templateId?: string): Promise<unknown> {
    return this.call('DELETE', `/${wabaId}/message_templates`, token, {
      name,
      ...(templateId ? { hsm_id: templateId } : {}),
    });
  }

  /** Meta's resumable upload: a session for the file, then its bytes; answers the handle templates name. */
  async upload(token: string, bytes: Buffer, fileType: string, fileName: string): Promise<string> {
    const session = await this.call<{ id?: string }>(
      'POST',
      `/${this.options.appId ?? 'app'}/uploads`,
      token,
      {
        file_name: fileName,
        file_length: String(bytes.length),
        file_type: fileType,
      },
    );
    if (!session.id) throw new GraphError('no upload session in the answer', 200, null, null);
    const done = await this.call<{ h?: string }>('POST', `/${session.id}`, token, {}, bytes, {
      authorization: `OAuth ${token}`,
      file_offset: '0',
    });
    if (!done.h) throw new GraphError('no handle in the answer', 200, null, null);
    return done.h;
  }

  private async call<T>(
    method: string,
    path: string,
    token: string | null,
    query: Record<string, string> = {},
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const url = new URL(`${this.options.graphUrl.replace(/\/+$/, '')}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const raw = Buffer.isBuffer(body);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined
            ? {}
            : { 'content-type': raw ? 'application/octet-stream' : 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : raw ? new Uint8Array(body as Buffer) : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new GraphError(`WhatsApp Cloud API unreachable: ${(error as Error).message}`, 0, null, null);
    }
    const answer = (await response.json().catch(() => ({}))) as {
      error?: { message?: string; code?: number; error_subcode?: number; error_data?: { details?: string } };
    };
    if (!response.ok || answer.error) {
      const error = answer.error ?? {};
      const details = error.error_data?.details;
      throw new GraphError(
        [error.message ?? `Graph API answered ${response.status}`, details].filter(Boolean).join(': '),
        response.status,
        error.code ?? null,
        error.error_subcode ?? null,
      );
    }
    return answer as T;
  }
}
