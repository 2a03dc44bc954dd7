/** A JSON answer as the API gives it. */
export const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Browsers resolve relative request URLs against the page; Node's Request does not. Stubbed in
 * (`vi.stubGlobal('Request', BrowserRequest)`), it lets the real API slice, whose base is '/api', run.
 */
export class BrowserRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, location.href) : input, init);
  }
}
