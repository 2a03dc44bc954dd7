// The part of Meta's Graph API the benchmark's page needs, on loopback: the page read that checks
// its token, the webhook subscription, user profiles, and the Send API, which records when each
// answer arrives (performance.now(), on this process's clock, like the webhooks' send times).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

export async function startFakeGraph({ pageId, pageToken }) {
  /** recipient id → arrival times of its message sends (typing indicators are not answers). */
  const answers = new Map();
  /** The distinct answer texts, so the run can show the bot answered and not, say, an error text. */
  const texts = new Set();
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url, 'http://fake');
    const path = url.pathname.replace(/^\/v\d+\.\d+/, '');
    const json = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.searchParams.get('access_token') !== pageToken)
      return json(400, {
        error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 },
      });
    if (path === `/${pageId}` && req.method === 'GET') return json(200, { id: pageId, name: 'Bench page' });
    if (path === `/${pageId}/subscribed_apps`) return json(200, { success: true });
    if (path === `/${pageId}/messages`) {
      const body = JSON.parse(raw || '{}');
      const recipient = body.recipient?.id;
      if (body.message) {
        const list = answers.get(recipient) ?? [];
        list.push(performance.now());
        answers.set(recipient, list);
        texts.add(body.message.text ?? JSON.stringify(body.message));
      }
      return json(200, { recipient_id: recipient, message_id: `m_${randomBytes(8).toString('hex')}` });
    }
    return json(200, { first_name: 'User', last_name: path.slice(1) });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v21.0`,
    answers,
    texts,
    reset: () => {
      answers.clear();
      texts.clear();
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
