import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A page the fake knows, with its linked Instagram professional account if any. */
export type FakePage = { id: string; name: string; instagram?: { id: string; username: string } };
export type FakeProfile = {
  id: string;
  name?: string;
  first_name?: string;
  last_name?: string;
  username?: string;
  profile_pic?: string;
};
export type GraphErrorSpec = { code: number; subcode?: number; status?: number; message?: string };
export type SentQuickReply = { content_type: string; title?: string; payload?: string };
export type SentRequest = { pageId: string; token: string; body: Record<string, unknown>; at: number };

export type MetaGraphFake = {
  /** Base URL with the version segment, for META_GRAPH_URL. */
  url: string;
  requests: Array<{ method: string; path: string; query: Record<string, string>; body: unknown }>;
  /** Every Send API request accepted (messages and sender actions), in order. */
  sent: SentRequest[];
  /** Webhook fields each page is subscribed to. */
  subscriptions: Map<string, string[]>;
  profileFetches: number;
  /** Facebook Login's dialog (for META_LOGIN_URL): grants `grantNext`'s pages and redirects back with a code. */
  dialogUrl: string;
  /** The pages the next visit to the dialog grants. */
  grantNext(pages: FakePage[]): void;
  /** A Facebook Login: exchanging `code` lists exactly these pages; returns their page tokens. */
  addLogin(login: { code: string; pages: FakePage[] }): Record<string, string>;
  addUser(profile: FakeProfile): void;
  /** The next `count` message sends fail with this Graph error. */
  failNextSends(count: number, error: GraphErrorSpec): void;
  /** While set, a message with quick replies is refused with this error (null: accepted again). */
  refuseQuickReplies(error: GraphErrorSpec | null): void;
  /** The quick replies sent with each message that had some, to one recipient (or to all), in order. */
  quickReplies(recipientId?: string): Array<{ text: string; quick_replies: SentQuickReply[] }>;
  expireToken(token: string): void;
  /** The texts sent, in order, to one recipient (or to all). */
  texts(recipientId?: string): string[];
  delay(ms: number): void;
  signature(rawBody: string): string;
  /** POSTs a delivery as Meta does, signed with the app secret unless `signature` says otherwise. */
  postWebhook(url: string, payload: unknown, options?: { signature?: string | null }): Promise<Response>;
  close(): Promise<void>;
};

const VERSION = 'v21.0';
const LONG_LIVED_SECONDS = 5_183_944;
const token = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
const mid = () => `m_${randomBytes(12).toString('hex')}`;

/**
 * Meta's Graph API on loopback, in its wire format: Facebook Login's code and token exchanges,
 * `/me/accounts`, a page read, webhook subscriptions, user profiles and the Send API, with Graph's
 * error JSON (`{ error: { message, type, code, error_subcode, fbtrace_id } }`), scripted send
 * failures and expired tokens; and signed webhook deliveries the other way.
 */
export async function startMetaGraphFake(app: { appId: string; appSecret: string }): Promise<MetaGraphFake> {
  const codes = new Map<string, FakePage[]>();
  const userTokens = new Map<string, FakePage[]>();
  const pageTokens = new Map<string, string>(); // token → page id
  const pages = new Map<string, FakePage>();
  const users = new Map<string, FakeProfile>();
  const expired = new Set<string>();
  const failures: GraphErrorSpec[] = [];
  let quickRepliesRefused: GraphErrorSpec | null = null;
  let delayMs = 0;
  let granting: FakePage[] = [];

  const fake: MetaGraphFake = {
    url: '',
    dialogUrl: '',
    grantNext: (granted) => {
      granting = granted;
    },
    requests: [],
    sent: [],
    subscriptions: new Map(),
    profileFetches: 0,
    addLogin: ({ code, pages: granted }) => {
      codes.set(code, granted);
      const issued: Record<string, string> = {};
      for (const page of granted) {
        pages.set(page.id, page);
        issued[page.id] = token('EAAP');
        pageTokens.set(issued[page.id]!, page.id);
      }
      return issued;
    },
    addUser: (profile) => {
      users.set(profile.id, profile);
    },
    failNextSends: (count, error) => {
      for (let i = 0; i < count; i++) failures.push(error);
    },
    refuseQuickReplies: (error) => {
      quickRepliesRefused = error;
    },
    quickReplies: (recipientId) =>
      fake.sent
        .map((s) => s.body as { recipient?: { id?: string }; message?: SentMessage })
        .filter((b) => b.message?.quick_replies && (!recipientId || b.recipient?.id === recipientId))
        .map((b) => ({ text: b.message!.text ?? '', quick_replies: b.message!.quick_replies! })),
    expireToken: (value) => {
      expired.add(value);
    },
    texts: (recipientId) =>
      fake.sent
        .map((s) => s.body as { recipient?: { id?: string }; message?: { text?: string } })
        .filter((b) => b.message?.text !== undefined && (!recipientId || b.recipient?.id === recipientId))
        .map((b) => b.message!.text!),
    delay: (ms) => {
      delayMs = ms;
    },
    signature: (raw) => `sha256=${createHmac('sha256', app.appSecret).update(raw).digest('hex')}`,
    postWebhook: (url, payload, options = {}) => {
      const raw = JSON.stringify(payload);
      const signature = options.signature === undefined ? fake.signature(raw) : options.signature;
      return fetch(url, {
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

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const path = url.pathname.replace(`/${VERSION}`, '');
    fake.requests.push({ method: req.method ?? 'GET', path, query, body });
    const bearer = req.headers.authorization?.replace(/^Bearer /, '');
    const access = query.access_token ?? bearer ?? '';
    const segments = path.split('/').filter(Boolean);

    if (url.pathname === '/dialog/oauth') return dialog(res, query);
    if (path === '/oauth/access_token') return exchange(res, query);
    if (path === '/me/accounts') return listPages(res, access);
    if (segments[1] === 'subscribed_apps') return subscription(res, req.method, segments[0]!, access, query);
    if (segments[1] === 'messages' || path === '/me/messages') return send(res, segments[0]!, access, body);
    if (segments.length === 1 && req.method === 'GET') return read(res, segments[0]!, access, query);
    return graphError(res, { code: 100, subcode: 33, message: 'Unsupported request.' });
  }

  /** The person "logs in" and grants the pages set with grantNext: back to the app with a code. */
  function dialog(res: ServerResponse, query: Record<string, string>) {
    if (query.client_id !== app.appId) return graphError(res, { code: 101, message: 'Invalid App ID' });
    const code = token('code-');
    fake.addLogin({ code, pages: granting });
    const back = new URL(query.redirect_uri ?? '');
    back.searchParams.set('code', code);
    back.searchParams.set('state', query.state ?? '');
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  function exchange(res: ServerResponse, query: Record<string, string>) {
    if (query.client_id !== app.appId || query.client_secret !== app.appSecret)
      return graphError(res, { code: 1, message: 'Error validating client secret.' });
    if (query.grant_type === 'fb_exchange_token') {
      const granted = userTokens.get(query.fb_exchange_token ?? '');
      if (!granted) return graphError(res, { code: 190, message: 'Invalid OAuth access token.' });
      const long = token('EAAL');
      userTokens.set(long, granted);
      return json(res, 200, { access_token: long, token_type: 'bearer', expires_in: LONG_LIVED_SECONDS });
    }
    const granted = codes.get(query.code ?? '');
    if (!granted)
      return graphError(res, {
        code: 100,
        subcode: 36009,
        message: 'This authorization code has been used.',
      });
    codes.delete(query.code!);
    const short = token('EAAS');
    userTokens.set(short, granted);
    return json(res, 200, { access_token: short, token_type: 'bearer', expires_in: 3600 });
  }

  function listPages(res: ServerResponse, access: string) {
    const granted = userTokens.get(access);
    if (!granted) return graphError(res, { code: 190, message: 'Invalid OAuth access token.' });
    const data = granted.map((page) => ({
      id: page.id,
      name: page.name,
      access_token: [...pageTokens].find(([, id]) => id === page.id)?.[0],
      ...(page.instagram ? { instagram_business_account: page.instagram } : {}),
    }));
    return json(res, 200, { data, paging: { cursors: { before: 'QVFI', after: 'QVFJ' } } });
  }

  /** The page whose live token this is, or null (answered with Graph's expired-session error). */
  function pageOf(res: ServerResponse, access: string, pageId?: string): string | null {
    const owner = pageTokens.get(access);
    if (!owner || expired.has(access) || (pageId && owner !== pageId)) {
      graphError(res, {
        code: 190,
        subcode: 463,
        message: 'Error validating access token: Session has expired',
      });
      return null;
    }
    return owner;
  }

  function subscription(
    res: ServerResponse,
    method: string | undefined,
    pageId: string,
    access: string,
    query: Record<string, string>,
  ) {
    if (!pageOf(res, access, pageId)) return;
    if (method === 'DELETE') fake.subscriptions.delete(pageId);
    else fake.subscriptions.set(pageId, (query.subscribed_fields ?? '').split(',').filter(Boolean));
    return json(res, 200, { success: true });
  }

  async function send(res: ServerResponse, pageId: string, access: string, body: Record<string, unknown>) {
    const owner = pageOf(res, access, pageId === 'me' ? undefined : pageId);
    if (!owner) return;
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const recipient = (body.recipient as { id?: string } | undefined)?.id ?? '';
    if (body.sender_action) {
      fake.sent.push({ pageId: owner, token: access, body, at: performance.now() });
      return json(res, 200, { recipient_id: recipient });
    }
    const failure = failures.shift();
    if (failure) return graphError(res, failure);
    const message = body.message as SentMessage | undefined;
    const text = message?.text;
    if (text !== undefined && text.length > 2000)
      return graphError(res, {
        code: 100,
        message: '(#100) Length of param message[text] must be less than or equal to 2000',
      });
    if (message?.quick_replies) {
      const refused = quickRepliesRefused ?? quickRepliesError(message);
      if (refused) return graphError(res, refused);
    }
    fake.sent.push({ pageId: owner, token: access, body, at: performance.now() });
    return json(res, 200, { recipient_id: recipient, message_id: mid() });
  }

  /** A page read with its own token, or a user's profile read with a page token. */
  function read(res: ServerResponse, id: string, access: string, query: Record<string, string>) {
    if (!pageOf(res, access, pages.has(id) ? id : undefined)) return;
    const page = pages.get(id);
    if (page)
      return json(res, 200, {
        id: page.id,
        name: page.name,
        ...(page.instagram ? { instagram_business_account: page.instagram } : {}),
      });
    const user = users.get(id);
    if (!user) return graphError(res, { code: 100, subcode: 33, message: 'Unsupported get request.' });
    fake.profileFetches += 1;
    const fields = (query.fields ?? '').split(',');
    const picked = Object.fromEntries(
      Object.entries(user).filter(([key]) => key === 'id' || fields.includes(key)),
    );
    return json(res, 200, picked);
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => graphError(res, { code: 2, status: 500, message: 'fake failed' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  fake.url = `http://127.0.0.1:${port}/${VERSION}`;
  fake.dialogUrl = `http://127.0.0.1:${port}/dialog/oauth`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

type SentMessage = { text?: string; quick_replies?: SentQuickReply[] };

/**
 * The Send API's checks on quick replies: at most 13, on a message with text or an attachment; a
 * `text` one needs a title and a payload of at most 1,000 characters. (A title past 20 characters is
 * not refused: the app cuts it, so tests check the titles the fake received.)
 */
function quickRepliesError(message: SentMessage): GraphErrorSpec | null {
  const replies = message.quick_replies!;
  const invalid = (what: string) => ({ code: 100, message: `(#100) ${what}` });
  if (!Array.isArray(replies) || replies.length === 0 || replies.length > 13)
    return invalid('param message[quick_replies] must have between 1 and 13 elements');
  if (!message.text) return invalid('message[text] or message[attachment] must be set with quick replies');
  for (const [n, reply] of replies.entries()) {
    if (!['text', 'user_phone_number', 'user_email'].includes(reply.content_type))
      return invalid(
        `param message[quick_replies][${n}][content_type] must be one of {text, user_phone_number, user_email}`,
      );
    if (reply.content_type !== 'text') continue;
    if (!reply.title) return invalid(`param message[quick_replies][${n}][title] must be non-empty`);
    if (!reply.payload || String(reply.payload).length > 1000)
      return invalid(`param message[quick_replies][${n}][payload] must be between 1 and 1000 characters`);
  }
  return null;
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function graphError(res: ServerResponse, error: GraphErrorSpec) {
  json(res, error.status ?? 400, {
    error: {
      message: error.message ?? 'An error occurred',
      type: 'OAuthException',
      code: error.code,
      ...(error.subcode ? { error_subcode: error.subcode } : {}),
      fbtrace_id: randomBytes(6).toString('base64url'),
    },
  });
}

// Deliveries in Meta's shapes --------------------------------------------------------------------

type Attachments = Array<{ type: string; payload: { url: string } }>;

/** One delivery of one messaging item, from `sender` to `recipient`, filed under the account `entryId`. */
function delivery(
  object: 'page' | 'instagram',
  entryId: string,
  ends: { sender: string; recipient: string },
  event: Record<string, unknown>,
  timestamp = Date.now(),
) {
  const item = { sender: { id: ends.sender }, recipient: { id: ends.recipient }, timestamp, ...event };
  return { object, entry: [{ id: entryId, time: timestamp, messaging: [item] }] };
}

export function messengerText(input: {
  pageId: string;
  senderId: string;
  text: string;
  mid?: string;
  timestamp?: number;
  attachments?: Attachments;
}) {
  const message = {
    mid: input.mid ?? mid(),
    text: input.text,
    ...(input.attachments ? { attachments: input.attachments } : {}),
  };
  return delivery(
    'page',
    input.pageId,
    { sender: input.senderId, recipient: input.pageId },
    { message },
    input.timestamp,
  );
}

/** A message the page sent (from Meta's inbox, or an app), echoed back to the webhook. */
export function messengerEcho(input: {
  pageId: string;
  recipientId: string;
  text: string;
  mid?: string;
  appId?: string;
}) {
  const message = {
    mid: input.mid ?? mid(),
    text: input.text,
    is_echo: true,
    ...(input.appId ? { app_id: Number(input.appId) } : {}),
  };
  return delivery('page', input.pageId, { sender: input.pageId, recipient: input.recipientId }, { message });
}

/** The user edited a message they sent (Messenger's `message_edits` field). */
export function messengerEdit(input: {
  pageId: string;
  senderId: string;
  mid: string;
  text: string;
  count: number;
}) {
  const message_edit = { mid: input.mid, text: input.text, num_edit: input.count };
  return delivery(
    'page',
    input.pageId,
    { sender: input.senderId, recipient: input.pageId },
    { message_edit },
  );
}

/** The user unsent a message on Instagram: the same mid, flagged, with no text. */
export function instagramUnsend(input: { igId: string; senderId: string; mid: string }) {
  const message = { mid: input.mid, is_deleted: true };
  return delivery('instagram', input.igId, { sender: input.senderId, recipient: input.igId }, { message });
}

export function messengerPostback(input: {
  pageId: string;
  senderId: string;
  title: string;
  payload: string;
  mid?: string;
}) {
  const postback = { mid: input.mid ?? mid(), title: input.title, payload: input.payload };
  return delivery('page', input.pageId, { sender: input.senderId, recipient: input.pageId }, { postback });
}

export function instagramText(input: {
  igId: string;
  senderId: string;
  text: string;
  mid?: string;
  storyUrl?: string;
  attachments?: Attachments;
}) {
  const message = {
    mid: input.mid ?? mid(),
    text: input.text,
    ...(input.attachments ? { attachments: input.attachments } : {}),
    ...(input.storyUrl ? { reply_to: { story: { url: input.storyUrl, id: 'story-1' } } } : {}),
  };
  return delivery('instagram', input.igId, { sender: input.senderId, recipient: input.igId }, { message });
}

/** A tap on a quick reply: a message whose text is the button's title, with its payload. */
export function quickReplyTap(input: {
  channel: 'messenger' | 'instagram';
  accountId: string;
  senderId: string;
  title: string;
  payload: string;
  mid?: string;
}) {
  const message = { mid: input.mid ?? mid(), text: input.title, quick_reply: { payload: input.payload } };
  return delivery(
    input.channel === 'messenger' ? 'page' : 'instagram',
    input.accountId,
    { sender: input.senderId, recipient: input.accountId },
    { message },
  );
}
