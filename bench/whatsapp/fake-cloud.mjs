// The part of the WhatsApp Cloud API (Graph) that bench/whatsapp's server calls, on loopback, plain
// node:http: embedded signup's code exchange, the business account's numbers, registration, webhook
// subscription, message templates, and the messages endpoint, which records when each send is
// accepted (performance.now(), this process's clock) and how often each recipient and each
// biz_opaque_callback_data was sent, so the run can show the rate and that no one got a campaign twice.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

const VERSION = 'v21.0';

/** One number's accepted sends: how many, the first and last acceptance, and per recipient / callback. */
function newRecorder() {
  return { count: 0, first: Number.NaN, last: Number.NaN, byTo: new Map(), byCallback: new Map() };
}

/** How many recipients (by `to`) and callbacks were sent more than once. */
export function duplicatesOf(recorder) {
  let to = 0;
  let callback = 0;
  for (const n of recorder.byTo.values()) if (n > 1) to += 1;
  for (const n of recorder.byCallback.values()) if (n > 1) callback += 1;
  return { to, callback };
}

/**
 * Starts the fake. `app` is the Meta app the server is configured with (code exchange checks its id
 * and secret; webhooks are signed with its secret). Numbers are added with `addSignup`.
 */
export async function startFakeCloud(app) {
  /** access token → number ({ wabaId, phoneNumberId, displayPhoneNumber, verifiedName }) */
  const tokens = new Map();
  /** code → access token, each usable once */
  const codes = new Map();
  /** template id → { id, wabaId, name, language, category, status, rejected_reason, components } */
  const templates = new Map();
  /** phone_number_id → recorder of its accepted template and text sends (read marks excluded) */
  const sends = new Map();
  let nextTemplateId = 1_000_000;

  const json = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const graphError = (res, status, code, message) =>
    json(res, status, {
      error: { message, type: 'OAuthException', code, fbtrace_id: randomBytes(8).toString('hex') },
    });
  const recorderOf = (phoneNumberId) => {
    let recorder = sends.get(phoneNumberId);
    if (!recorder) {
      recorder = newRecorder();
      sends.set(phoneNumberId, recorder);
    }
    return recorder;
  };

  function message(res, number, body) {
    if (body.status === 'read') return json(res, 200, { success: true });
    if (body.messaging_product !== 'whatsapp' || typeof body.to !== 'string' || !body.to)
      return graphError(res, 400, 100, '(#100) Invalid parameter: to');
    if (body.type === 'template') {
      const name = body.template?.name;
      const code = body.template?.language?.code;
      let approved = false;
      for (const t of templates.values())
        if (t.wabaId === number.wabaId && t.name === name && t.language === code && t.status === 'APPROVED')
          approved = true;
      if (!approved)
        return graphError(res, 404, 132001, '(#132001) Template name does not exist in the translation');
    } else if (body.type !== 'text') {
      return graphError(res, 400, 100, `(#100) Unsupported message type ${body.type}`);
    }
    const recorder = recorderOf(number.phoneNumberId);
    const at = performance.now();
    if (recorder.count === 0) recorder.first = at;
    recorder.last = at;
    recorder.count += 1;
    recorder.byTo.set(body.to, (recorder.byTo.get(body.to) ?? 0) + 1);
    const callback = body.biz_opaque_callback_data;
    if (callback !== undefined)
      recorder.byCallback.set(callback, (recorder.byCallback.get(callback) ?? 0) + 1);
    return json(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id: `wamid.${randomBytes(16).toString('base64url')}` }],
    });
  }

  function messageTemplates(req, res, number, body) {
    if (req.method === 'GET') {
      const data = [...templates.values()]
        .filter((t) => t.wabaId === number.wabaId)
        .map(({ wabaId: _, ...t }) => t);
      return json(res, 200, { data, paging: {} });
    }
    if (req.method === 'DELETE') return json(res, 200, { success: true });
    const name = String(body.name ?? '');
    if (!/^[a-z0-9_]+$/.test(name)) return graphError(res, 400, 100, '(#100) Invalid parameter: name');
    const id = String(nextTemplateId++);
    templates.set(id, {
      id,
      wabaId: number.wabaId,
      name,
      language: String(body.language ?? ''),
      category: String(body.category ?? ''),
      status: 'PENDING',
      rejected_reason: null,
      components: Array.isArray(body.components) ? body.components : [],
    });
    return json(res, 200, { id, status: 'PENDING', category: body.category });
  }

  function handle(req, res, raw) {
    const url = new URL(req.url, 'http://fake');
    if (!url.pathname.startsWith(`/${VERSION}/`)) return graphError(res, 404, 803, 'Unknown path');
    const [id, edge, extra] = url.pathname.slice(VERSION.length + 2).split('/');
    if (id === 'oauth' && edge === 'access_token') {
      const q = url.searchParams;
      if (q.get('client_id') !== app.appId || q.get('client_secret') !== app.appSecret)
        return graphError(res, 400, 101, 'Error validating application');
      const token = codes.get(q.get('code') ?? '');
      if (!token) return graphError(res, 400, 100, 'Invalid verification code format.');
      codes.delete(q.get('code'));
      return json(res, 200, { access_token: token, token_type: 'bearer' });
    }
    const number = tokens.get((req.headers.authorization ?? '').replace(/^(Bearer|OAuth) /, ''));
    if (!number) return graphError(res, 401, 190, 'Invalid OAuth access token.');
    let body = {};
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return graphError(res, 400, 100, '(#100) The body is not JSON');
      }
    }
    const numberView = {
      id: number.phoneNumberId,
      display_phone_number: number.displayPhoneNumber,
      verified_name: number.verifiedName,
      quality_rating: 'GREEN',
    };
    if (extra === undefined && id === number.phoneNumberId) {
      if (!edge && req.method === 'GET') return json(res, 200, numberView);
      if (edge === 'messages' && req.method === 'POST') return message(res, number, body);
      if (edge === 'register' && req.method === 'POST') {
        if (body.messaging_product !== 'whatsapp' || !/^\d{6}$/.test(String(body.pin ?? '')))
          return graphError(res, 400, 100, '(#100) Invalid parameter: pin');
        return json(res, 200, { success: true });
      }
    }
    if (extra === undefined && id === number.wabaId) {
      if (edge === 'phone_numbers' && req.method === 'GET') return json(res, 200, { data: [numberView] });
      if (edge === 'subscribed_apps' && (req.method === 'POST' || req.method === 'DELETE'))
        return json(res, 200, { success: true });
      if (edge === 'message_templates') return messageTemplates(req, res, number, body);
    }
    return graphError(res, 400, 100, `Unsupported request: ${req.method} ${url.pathname}`);
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks));
      } catch (error) {
        if (!res.headersSent) graphError(res, 500, 1, String(error));
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;

  const fake = {
    /** For META_GRAPH_URL: the base with its version segment. */
    url: `${origin}/${VERSION}`,
    /** An embedded signup: `code` exchanges for a token of `number`; answers the token. */
    addSignup(code, number) {
      const token = `EAAW${randomBytes(16).toString('hex')}`;
      tokens.set(token, number);
      codes.set(code, token);
      return token;
    },
    /** The recorder of a number's accepted sends (made empty if none yet). */
    sendsOf: (phoneNumberId) => recorderOf(phoneNumberId),
    resetSends: (phoneNumberId) => sends.delete(phoneNumberId),
    templates,
    signature: (raw) => `sha256=${createHmac('sha256', app.appSecret).update(raw).digest('hex')}`,
    /**
     * Meta's review: the template (by the id the submission was answered) becomes APPROVED here, and the signed review webhook is posted to
     * `webhookUrl` (the server's /api/social/whatsapp/webhook); resolves with its HTTP status.
     */
    async approve(templateId, webhookUrl) {
      const template = templates.get(String(templateId));
      if (!template) throw new Error(`fake-cloud: no template ${templateId} was submitted`);
      template.status = 'APPROVED';
      const raw = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: template.wabaId,
            time: Math.floor(Date.now() / 1000),
            changes: [
              {
                field: 'message_template_status_update',
                value: {
                  event: 'APPROVED',
                  message_template_id: Number(template.id),
                  message_template_name: template.name,
                  message_template_language: template.language,
                  reason: null,
                },
              },
            ],
          },
        ],
      });
      const response = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': fake.signature(raw) },
        body: raw,
      });
      await response.arrayBuffer();
      return response.status;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections?.();
      }),
  };
  return fake;
}
