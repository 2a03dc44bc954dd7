// Shared by the benchmarks that set up through Parley's API: one call, its JSON, or a clear error.

/** `method url` on `baseUrl` with a JSON body or a form, as `token`; throws with the answer unless 2xx. */
export async function call(baseUrl, method, url, { body, form, token } = {}) {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: form ?? (body ? JSON.stringify(body) : undefined),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}
