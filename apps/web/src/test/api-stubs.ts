import { vi } from 'vitest';

/**
 * The API's base is relative ('/api'), which Node's Request cannot take without a page address:
 * requests made through the real API slice get one. Undo with `vi.unstubAllGlobals()`.
 */
export function acceptRelativeRequests(): void {
  const NodeRequest = Request;
  vi.stubGlobal(
    'Request',
    class extends NodeRequest {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
      }
    },
  );
}

export const jsonResponse = (body: unknown): Response =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
