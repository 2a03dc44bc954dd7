import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type FakeNumber = {
  wabaId: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  qualityRating?: string;
};
export type CloudErrorSpec = { code: number; status?: number; message?: string };
export type CloudInteractive = {
  type: string;
  body?: { text?: string };
  action?: { buttons?: Array<{ type?: string; reply?: { id?: string; title?: string } }> };
};
export type CloudSent = { phoneNumberId: string; token: string; body: Record<string, unknown>; at: number };
type FakeTemplate = {
  id: string;
  wabaId: string;
  name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason: string | null;
  components: unknown[];
};

export type WhatsAppCloudFake = {
  /** Base URL with the version segment, for META_GRAPH_URL. */
  url: string;
  /** The embedded signup's dialog (for META_LOGIN_URL): posts the session info to the opener, then redirects with a code. */
  dialogUrl: string;
  /** Where status and template webhooks go (the server's /api/social/whatsapp/webhook); none when unset. */
  webhookUrl: string | null;
  /** Every message request accepted (messages and read marks), in order. */
  sent: CloudSent[];
  requests: Array<{ method: string; path: string }>;
  subscribed: Set<string>;
  registered: Set<string>;
  templates: Map<string, FakeTemplate>;
  uploads: number;
  /** A file a customer sends to `number` (its id goes in the inbound message), served as Meta serves media. */
  addMedia(number: Pick<FakeNumber, 'phoneNumberId'>, bytes: Buffer, mimeType: string): string;
  /** How many times each media id's bytes were downloaded. */
  downloads: Map<string, number>;
  /** An embedded signup: exchanging `code` yields a token for the number's business account. */
  addSignup(code: string, number: FakeNumber): string;
  /** What the next visit to the dialog grants (its code is returned). */
  signupNext(number: FakeNumber): string;
  failNextSends(count: number, error: CloudErrorSpec): void;
  /** While set, interactive messages are refused with this error (null: accepted again). */
  refuseInteractive(error: CloudErrorSpec | null): void;
  /** Interactive messages sent to one customer, in order. */
  interactives(to?: string): CloudInteractive[];
  /** Sends are answered only after this many milliseconds. */
  delay(ms: number): void;
  /** Whether each accepted message gets its sent and delivered status webhooks. */
  autoStatus(on: boolean): void;
  /** What one customer (wa id without +) reads, in order: text bodies and interactive bodies. */
  texts(to?: string): string[];
  /** Template sends, as (to, template name) pairs. */
  templateSends(to?: string): Array<{ to: string; name: string; callback: string | null }>;
  /** Marks the template reviewed and delivers the review webhook. */
  review(name: string, event: 'APPROVED' | 'REJECTED', reason?: string): Promise<void>;
  signature(rawBody: string): string;
  postWebhook(payload: unknown, options?: { signature?: string | null }): Promise<Response>;
  close(): Promise<void>;
};

const VERSION = 'v21.0';
const wamid = () => `wamid.${randomBytes(16).toString('base64url')}`;

/**
 * The WhatsApp Cloud API on loopback, in its wire format: embedded signup's code exchange, the
 * business account's numbers, registration, webhook subscription, messages (text, reply buttons
 * checked against the Cloud API's limits, template, read marks) with their status webhooks, message templates with review webhooks, resumable uploads,
 * Graph's error JSON (rate limit 130429, window 131047...), and signed webhook deliveries.
 */
export async function startWhatsAppCloudFake(app: {
  appId: string;
  appSecret: string;
}): Promise<WhatsAppCloudFake> {
  const codes = new Map<string, FakeNumber>();
  const tokens = new Map<string, FakeNumber>();
  const failures: CloudErrorSpec[] = [];
  let interactiveRefused: CloudErrorSpec | null = null;
  let delayMs = 0;
  let statuses = true;
  let granting: { code: string; number: FakeNumber } | null = null;
  const media = new Map<string, { phoneNumberId: string; bytes: Buffer; mimeType: string }>();

  const fake: WhatsAppCloudFake = {
    url: '',
    dialogUrl: '',
    webhookUrl: null,
    sent: [],
    requests: [],
    subscribed: new Set(),
    registered: new Set(),
    templates: new Map(),
    uploads: 0,
    downloads: new Map(),
    addMedia: (number, bytes, mimeType) => {
      const id = String(7_000_000_000 + media.size + 1);
      media.set(id, { phoneNumberId: number.phoneNumberId, bytes, mimeType });
      return id;
    },
    addSignup: (code, number) => {
      codes.set(code, number);
      const token = `EAAW${randomBytes(12).toString('hex')}`;
      tokens.set(token, number);
      return token;
    },
    signupNext: (number) => {
      const code = `code-${randomBytes(6).toString('hex')}`;
      fake.addSignup(code, number);
      granting = { code, number };
      return code;
    },
    failNextSends: (count, error) => {
      for (let i = 0; i < count; i++) failures.push(error);
    },
    delay: (ms) => {
      delayMs = ms;
    },
    autoStatus: (on) => {
      statuses = on;
    },
    refuseInteractive: (error) => {
      interactiveRefused = error;
    },
    interactives: (to) =>
      fake.sent
        .map((s) => s.body as { to?: string; type?: string; interactive?: CloudInteractive })
        .filter((b) => b.type === 'interactive' && (!to || b.to === to))
        .map((b) => b.interactive!),
    texts: (to) =>
      fake.sent
        .map(
          (s) =>
            s.body as {
              to?: string;
              type?: string;
              text?: { body?: string };
              interactive?: CloudInteractive;
            },
        )
        .filter((b) => (b.type === 'text' || b.type === 'interactive') && (!to || b.to === to))
        .map((b) => (b.type === 'text' ? (b.text?.body ?? '') : (b.interactive?.body?.text ?? ''))),
    templateSends: (to) =>
      fake.sent
        .map(
          (s) =>
            s.body as {
              to?: string;
              type?: string;
              template?: { name?: string };
              biz_opaque_callback_data?: string;
            },
        )
        .filter((b) => b.type === 'template' && (!to || b.to === to))
        .map((b) => ({
          to: b.to ?? '',
          name: b.template?.name ?? '',
          callback: b.biz_opaque_callback_data ?? null,
        })),
    review: async (name, event, reason) => {
      const template = [...fake.templates.values()].find((t) => t.name === name);
      if (!template) throw new Error(`no template ${name}`);
      template.status = event;
      template.rejected_reason = event === 'REJECTED' ? (reason ?? 'INVALID_FORMAT') : null;
      await deliver({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: template.wabaId,
            time: Math.floor(Date.now() / 1000),
            changes: [
              {
                field: 'message_template_status_update',
                value: {
                  event,
                  message_template_id: Number(template.id),
                  message_template_name: template.name,
                  message_template_language: template.language,
                  reason: event === 'REJECTED' ? template.rejected_reason : 'NONE',
                },
              },
            ],
          },
        ],
      });
    },
    signature: (raw) => `sha256=${createHmac('sha256', app.appSecret).update(raw).digest('hex')}`,
    postWebhook: (payload, options = {}) => {
      if (!fake.webhookUrl) throw new Error('webhookUrl is not set');
      const raw = JSON.stringify(payload);
      const signature = options.signature === undefined ? fake.signature(raw) : options.signature;
      return fetch(fake.webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(signature ? { 'x-hub-signature-256': signature } : {}),
        },
        body: raw,
      });
    },
    close: async () => {},
  };

  async function deliver(payload: unknown): Promise<void> {
    if (!fake.webhookUrl) return;
    const response = await fake.postWebhook(payload);
    await response.arrayBuffer();
  }

  function numberOf(req: IncomingMessage): FakeNumber | null {
    const header = req.headers.authorization ?? '';
    const token = header.replace(/^(Bearer|OAuth) /, '');
    return tokens.get(token) ?? null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const query = Object.fromEntries(url.searchParams);
    fake.requests.push({ method: req.method ?? 'GET', path: url.pathname });
    if (url.pathname === '/dialog/oauth') return dialog(res, query);
    if (url.pathname === '/whatsapp_business/attachments/') return download(req, res, query.mid ?? '');
    if (!url.pathname.startsWith(`/${VERSION}/`))
      return json(res, 404, { error: { message: 'Unknown path', code: 803 } });
    const parts = url.pathname.slice(VERSION.length + 2).split('/');
    if (parts[0] === 'oauth' && parts[1] === 'access_token') return exchange(res, query);
    const number = numberOf(req);
    if (!number) return graphError(res, { code: 190, status: 401, message: 'Invalid OAuth access token' });
    const body =
      req.headers['content-type']?.includes('json') && raw.length ? JSON.parse(raw.toString('utf8')) : {};
    const [id, edge] = parts;
    if (parts[0] === app.appId && edge === 'uploads')
      return json(res, 200, { id: `upload:${randomBytes(8).toString('hex')}` });
    if (id?.startsWith('upload:')) {
      fake.uploads++;
      return json(res, 200, { h: `4::${randomBytes(12).toString('base64url')}` });
    }
    const file = id ? media.get(id) : undefined;
    if (file && !edge && req.method === 'GET') {
      // Meta answers only the number the customer wrote to; another's token meets "does not exist".
      if (file.phoneNumberId !== number.phoneNumberId)
        return graphError(res, {
          code: 100,
          message: `Unsupported get request. Object with ID '${id}' does not exist`,
        });
      return json(res, 200, {
        messaging_product: 'whatsapp',
        url: `${fake.url.replace(`/${VERSION}`, '')}/whatsapp_business/attachments/?mid=${id}`,
        mime_type: file.mimeType,
        sha256: createHash('sha256').update(file.bytes).digest('hex'),
        file_size: file.bytes.length,
        id,
      });
    }
    if (id === number.phoneNumberId && !edge)
      return json(res, 200, {
        id,
        display_phone_number: number.displayPhoneNumber,
        verified_name: number.verifiedName,
        quality_rating: number.qualityRating ?? 'GREEN',
      });
    if (id === number.wabaId && edge === 'phone_numbers')
      return json(res, 200, {
        data: [
          {
            id: number.phoneNumberId,
            display_phone_number: number.displayPhoneNumber,
            verified_name: number.verifiedName,
          },
        ],
      });
    if (id === number.phoneNumberId && edge === 'register') {
      fake.registered.add(id);
      return json(res, 200, { success: true });
    }
    if (id === number.wabaId && edge === 'subscribed_apps') {
      if (req.method === 'DELETE') fake.subscribed.delete(id);
      else fake.subscribed.add(id);
      return json(res, 200, { success: true });
    }
    if (id === number.wabaId && edge === 'message_templates') return templates(req, res, number, body, query);
    if (id === number.phoneNumberId && edge === 'messages') return message(res, number, req, body);
    return graphError(res, { code: 100, message: `Unsupported request: ${req.method} ${url.pathname}` });
  }

  /** The media URL: the bytes, only with the token of the number they were sent to. */
  function download(req: IncomingMessage, res: ServerResponse, id: string) {
    const file = media.get(id);
    const number = numberOf(req);
    if (!file || number?.phoneNumberId !== file.phoneNumberId) return json(res, 404, { error: 'not found' });
    fake.downloads.set(id, (fake.downloads.get(id) ?? 0) + 1);
    res.writeHead(200, { 'content-type': file.mimeType, 'content-length': String(file.bytes.length) });
    res.end(file.bytes);
  }

  function dialog(res: ServerResponse, query: Record<string, string>) {
    const grant = granting;
    if (!grant || !query.redirect_uri)
      return json(res, 400, { error: { message: 'nothing to grant', code: 100 } });
    const info = JSON.stringify({
      type: 'WA_EMBEDDED_SIGNUP',
      event: 'FINISH',
      data: { phone_number_id: grant.number.phoneNumberId, waba_id: grant.number.wabaId },
    });
    const back = new URL(query.redirect_uri);
    back.searchParams.set('code', grant.code);
    if (query.state) back.searchParams.set('state', query.state);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>WhatsApp signup</title><p>Connecting ${grant.number.verifiedName}…</p>
<script>
  if (window.opener) window.opener.postMessage(${JSON.stringify(info)}, '*');
  setTimeout(() => { location.href = ${JSON.stringify(back.toString())}; }, 100);
</script>`);
  }

  function exchange(res: ServerResponse, query: Record<string, string>) {
    if (query.client_id !== app.appId || query.client_secret !== app.appSecret)
      return graphError(res, { code: 101, message: 'Error validating application' });
    const number = codes.get(query.code ?? '');
    if (!number) return graphError(res, { code: 100, message: 'Invalid verification code format.' });
    codes.delete(query.code!);
    const token = [...tokens.entries()].find(([, n]) => n === number)![0];
    json(res, 200, { access_token: token, token_type: 'bearer' });
  }

  function templates(
    req: IncomingMessage,
    res: ServerResponse,
    number: FakeNumber,
    body: Record<string, unknown>,
    query: Record<string, string>,
  ) {
    if (req.method === 'GET') {
      const data = [...fake.templates.values()].filter((t) => t.wabaId === number.wabaId);
      return json(res, 200, { data: data.map(({ wabaId: _, ...t }) => t), paging: {} });
    }
    if (req.method === 'DELETE') {
      const found = [...fake.templates.values()].find(
        (t) => t.name === query.name && t.wabaId === number.wabaId,
      );
      if (!found) return graphError(res, { code: 100, message: 'Template does not exist' });
      fake.templates.delete(found.id);
      return json(res, 200, { success: true });
    }
    const name = String(body.name ?? '');
    if (!/^[a-z0-9_]+$/.test(name)) return graphError(res, { code: 100, message: 'Invalid parameter' });
    const id = String(1_000_000 + fake.templates.size + 1);
    fake.templates.set(id, {
      id,
      wabaId: number.wabaId,
      name,
      language: String(body.language),
      category: String(body.category),
      status: 'PENDING',
      rejected_reason: null,
      components: (body.components as unknown[]) ?? [],
    });
    json(res, 200, { id, status: 'PENDING', category: body.category });
  }

  async function message(
    res: ServerResponse,
    number: FakeNumber,
    req: IncomingMessage,
    body: Record<string, unknown>,
  ) {
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (body.status === 'read') {
      fake.sent.push({ phoneNumberId: number.phoneNumberId, token: '', body, at: Date.now() });
      return json(res, 200, { success: true });
    }
    const failure = failures.shift();
    if (failure) return graphError(res, failure);
    const invalid = messageError(body, interactiveRefused);
    if (invalid) return graphError(res, invalid);
    if (body.type === 'template') {
      const name = (body.template as { name?: string })?.name;
      const approved = [...fake.templates.values()].some((t) => t.name === name && t.status === 'APPROVED');
      if (!approved)
        return graphError(res, { code: 132001, message: 'Template name does not exist in the translation' });
    }
    const id = wamid();
    fake.sent.push({
      phoneNumberId: number.phoneNumberId,
      token: String(req.headers.authorization),
      body,
      at: Date.now(),
    });
    json(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id }],
    });
    if (statuses) {
      const callback = body.biz_opaque_callback_data as string | undefined;
      setTimeout(() => {
        void deliver(statusDelivery(number, id, String(body.to), ['sent', 'delivered'], callback)).catch(
          () => undefined,
        );
      }, 20);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => json(res, 500, { error: { message: String(error), code: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  fake.url = `http://127.0.0.1:${port}/${VERSION}`;
  fake.dialogUrl = `http://127.0.0.1:${port}/dialog/oauth`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

/**
 * The Cloud API's checks on what a message carries: a text body of 1 to 4,096 characters; an
 * interactive reply-buttons message with a body of 1 to 1,024 characters and 1 to 3 `reply`
 * buttons, each with a unique id of at most 256 characters (no spaces around it) and a unique title
 * of 1 to 20 characters (longer is refused, not cut).
 */
function messageError(body: Record<string, unknown>, refused: CloudErrorSpec | null): CloudErrorSpec | null {
  const invalid = (details: string) => ({
    code: 131009,
    message: `(#131009) Parameter value is not valid: ${details}`,
  });
  if (body.type === 'text') {
    const text = (body.text as { body?: string } | undefined)?.body ?? '';
    if (!text || text.length > 4096)
      return { code: 100, message: "(#100) Param text['body'] must be between 1 and 4096 characters" };
  }
  if (body.type !== 'interactive') return null;
  if (refused) return refused;
  const interactive = body.interactive as CloudInteractive | undefined;
  if (interactive?.type !== 'button') return invalid('interactive type must be button for this fake');
  const text = interactive.body?.text ?? '';
  if (!text || text.length > 1024)
    return invalid('Body text length invalid. Min length: 1, Max length: 1024');
  const buttons = interactive.action?.buttons ?? [];
  if (buttons.length < 1 || buttons.length > 3) return invalid('Number of buttons must be between 1 and 3');
  const ids = new Set<string>();
  const titles = new Set<string>();
  for (const button of buttons) {
    const id = button.reply?.id ?? '';
    const title = button.reply?.title ?? '';
    if (button.type !== 'reply') return invalid('Button type must be reply');
    if (!id || id.length > 256 || id !== id.trim())
      return invalid('Button id length invalid. Min length: 1, Max length: 256');
    if (!title || title.length > 20)
      return invalid('Button title length invalid. Min length: 1, Max length: 20');
    if (ids.has(id) || titles.has(title)) return invalid('Button ids and titles must be unique');
    ids.add(id);
    titles.add(title);
  }
  return null;
}

function json(res: ServerResponse, status: number, body: unknown) {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function graphError(res: ServerResponse, error: CloudErrorSpec) {
  json(res, error.status ?? 400, {
    error: {
      message: error.message ?? `(#${error.code}) error`,
      type: 'OAuthException',
      code: error.code,
      error_data: { messaging_product: 'whatsapp', details: error.message ?? 'error' },
      fbtrace_id: randomBytes(8).toString('hex'),
    },
  });
}

/** A status webhook for one message: each status in order, with the callback it was sent with. */
export function statusDelivery(
  number: Pick<FakeNumber, 'wabaId' | 'phoneNumberId' | 'displayPhoneNumber'>,
  id: string,
  to: string,
  kinds: Array<'sent' | 'delivered' | 'read' | 'failed'>,
  callback?: string,
  error?: { code: number; title: string },
) {
  const now = Math.floor(Date.now() / 1000);
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: number.displayPhoneNumber,
                phone_number_id: number.phoneNumberId,
              },
              statuses: kinds.map((status) => ({
                id,
                status,
                timestamp: String(now),
                recipient_id: to,
                ...(callback ? { biz_opaque_callback_data: callback } : {}),
                ...(status === 'failed' && error
                  ? { errors: [{ code: error.code, title: error.title }] }
                  : {}),
              })),
            },
          },
        ],
      },
    ],
  };
}

/** A customer's message as the webhook delivers it. */
export function inboundDelivery(input: {
  number: Pick<FakeNumber, 'wabaId' | 'phoneNumberId' | 'displayPhoneNumber'>;
  from: string;
  name?: string;
  id?: string;
  timestamp?: number;
  message: Record<string, unknown>;
}) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: input.number.wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: input.number.displayPhoneNumber,
                phone_number_id: input.number.phoneNumberId,
              },
              contacts: [{ profile: { name: input.name ?? 'Customer' }, wa_id: input.from }],
              messages: [
                {
                  from: input.from,
                  id: input.id ?? wamid(),
                  timestamp: String(Math.floor((input.timestamp ?? Date.now()) / 1000)),
                  ...input.message,
                },
              ],
            },
          },
        ],
      },
    ],
  };
}

export const textMessage = (body: string) => ({ type: 'text', text: { body } });

/** A tap on a reply button of an interactive message (`context.id`: the message it was under). */
export const buttonReply = (id: string, title: string, under?: string) => ({
  type: 'interactive',
  interactive: { type: 'button_reply', button_reply: { id, title } },
  ...(under ? { context: { from: 'business', id: under } } : {}),
});
