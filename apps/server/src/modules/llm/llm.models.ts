import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LlmProvider } from '@parley/contracts';
import type { LanguageModel } from 'ai';

/** What it takes to reach one configured model. */
export type ModelTarget = {
  provider: LlmProvider;
  model: string;
  baseUrl: string | null;
  /** The decrypted key, or null when none is stored. */
  apiKey: string | null;
};

/**
 * Model calls never follow a redirect: a base URL may be any address the server reaches (loopback
 * for a local model), and a redirect would carry the request, key included, to a host nobody
 * entered. The 3xx comes back as the provider's HTTP error instead.
 */
export const withoutRedirects =
  (fetch: typeof globalThis.fetch = globalThis.fetch): typeof globalThis.fetch =>
  (input, init) =>
    fetch(input, { ...init, redirect: 'manual' });

/** A key this short could be an ordinary word of an error text: nothing is masked for it. */
const MIN_SCRUBBED_KEY = 8;
const KEY_MASK = '[API key removed]';

/**
 * A provider or proxy that refuses a key may quote it whole in its error ("Incorrect API key
 * provided: sk-…"), and the AI SDK puts that text in the error it throws, which the answer path
 * logs. The key is taken out of every error response before the SDK reads it, so it never reaches
 * an error, a log line or a stored reason.
 */
export const withoutKeyInErrors =
  (apiKey: string | null, fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
  async (input, init) => {
    const response = await fetch(input, init);
    if (response.ok || !apiKey || apiKey.length < MIN_SCRUBBED_KEY || response.body === null) return response;
    const text = await response.text();
    const body = text.includes(apiKey) ? text.replaceAll(apiKey, KEY_MASK) : text;
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

/**
 * The AI SDK model for a configured target. A key is always passed explicitly (empty when none is
 * stored), so a tenant's model never falls back to a key in the server's environment.
 */
export function languageModelOf(target: ModelTarget, baseFetch?: typeof globalThis.fetch): LanguageModel {
  const fetch = withoutKeyInErrors(target.apiKey, withoutRedirects(baseFetch));
  const apiKey = target.apiKey ?? '';
  const baseURL = target.baseUrl ?? undefined;
  switch (target.provider) {
    case 'openai':
      // Chat Completions: the API every OpenAI-style endpoint and proxy serves.
      return createOpenAI({ apiKey, baseURL, fetch }).chat(target.model);
    case 'azure':
      // Azure OpenAI's v1 API (https://<resource>.openai.azure.com/openai/v1): the model is the
      // deployment name; the key goes as api-key, which Azure reads, and as a bearer token.
      return createOpenAI({
        apiKey,
        baseURL,
        fetch,
        headers: target.apiKey ? { 'api-key': target.apiKey } : undefined,
      }).chat(target.model);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: baseURL ?? '',
        // Local servers (Ollama, llama.cpp) often need no key: then no Authorization header at all.
        apiKey: target.apiKey ?? undefined,
        includeUsage: true,
        fetch,
      }).chatModel(target.model);
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL, fetch })(target.model);
    case 'google':
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch })(target.model);
  }
}
