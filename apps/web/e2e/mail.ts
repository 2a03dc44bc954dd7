import { SMTPServer } from 'smtp-server';

export type CapturedMail = { to: string[]; subject: string; text: string; raw: string };

/** Splits a MIME entity into its header block (unfolded, lower-cased names) and body. */
function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const index = entity.search(/\r?\n\r?\n/);
  const head = index < 0 ? entity : entity.slice(0, index);
  const body = index < 0 ? '' : entity.slice(index).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  const kind = (encoding ?? '7bit').toLowerCase();
  if (kind === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (kind === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Encoded-word subjects (=?UTF-8?Q?...?=) as nodemailer writes them for non-ASCII text. */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
  );
}

/** The text/plain part of a message (or its only body), decoded. */
function textOf(entity: string): string {
  const { headers, body } = splitEntity(entity);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) {
    return decodeBody(body, headers.get('content-transfer-encoding'));
  }
  const parts = body.split(`--${boundary}`).slice(1, -1);
  const texts = parts.map((part) => ({
    part,
    type: splitEntity(part.replace(/^\r?\n/, '')).headers.get('content-type') ?? '',
  }));
  const chosen = texts.find((p) => p.type.startsWith('text/plain')) ?? texts[0];
  return chosen ? textOf(chosen.part.replace(/^\r?\n/, '')) : '';
}

/**
 * An SMTP server on loopback that keeps every message it receives, so tests read invitation links
 * and one-time codes the way a person reads their inbox.
 */
export class MailCapture {
  readonly messages: CapturedMail[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers } = splitEntity(raw);
        this.messages.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: decodeHeader(headers.get('subject') ?? ''),
          text: textOf(raw),
          raw,
        });
        callback();
      });
    },
  });

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The newest message to `to` matching `subject`, waiting for the mail job to deliver it. */
  async waitFor(to: string, subject: RegExp, timeoutMs = 20_000): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = this.messages.findLast((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seen = this.messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('\n');
    throw new Error(`No mail to ${to} matching ${subject} within ${timeoutMs} ms. Seen:\n${seen}`);
  }
}
