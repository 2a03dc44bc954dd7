/**
 * The session check, started before anything else runs. index.html loads this module as a script of
 * its own before main.tsx, and the build gives it a chunk of its own (vite.config.ts), so it runs
 * before the libraries' chunk is evaluated: with a stored token, GET /api/auth/user leaves some 150-300 ms sooner than main.tsx
 * could send it, and every console page waits on its answer behind the spinner (issue 36).
 */
const SESSION_CHECK = '/api/auth/user';
/**
 * STORAGE_KEYS.accessToken, the key the spec fixes, written out: importing the keys' module would
 * bring it into this chunk, and with it bytes that /login (at its 200 KB budget) would pay twice.
 */
const TOKEN_KEY = 'accessToken';

let pending: { authorization: string; response: Promise<Response> } | null = startCheck();

function startCheck(): typeof pending {
  let token: string | null = null;
  try {
    token = localStorage.getItem(TOKEN_KEY);
  } catch {
    return null; // storage blocked: the app asks the usual way
  }
  if (!token) return null;
  const authorization = `Bearer ${token}`;
  const response = fetch(SESSION_CHECK, {
    headers: { Authorization: authorization },
    credentials: 'same-origin',
  });
  // A failure is the base query's to report when it takes the response; none is left unhandled.
  response.catch(() => undefined);
  return { authorization, response };
}

/**
 * The early answer for this request, once: only the same GET with the same token (a token renewed
 * meanwhile asks again). Anything else, or a second call, gets null and is fetched as usual.
 */
export function takeEarlySessionCheck(request: Request): Promise<Response> | null {
  if (!pending || request.method !== 'GET') return null;
  if (new URL(request.url).pathname !== SESSION_CHECK) return null;
  if (request.headers.get('Authorization') !== pending.authorization) return null;
  const { response } = pending;
  pending = null;
  return response;
}
