import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { send } from './eval-answer-judge.js';
import type { TrainedSite } from './eval-answer-sites.js';
import type { EvalApi } from './eval-api.js';
import { REPO } from './eval-release.js';

/**
 * The model pass of `npm run eval:answers`: each bot gets a language model, the OpenAI-compatible
 * fake of the API tests, and is asked its answerable questions. The fake's answer does not matter;
 * what is scored is whether the passages Parley sent it (the numbered sources of the system prompt)
 * hold the fact, so that a real model could have answered.
 */

/** The part of the fake (apps/server/src/test/fakes/openai.ts) the evaluation uses. */
export type ModelFake = {
  /** Base URL for a provider (ends in /v1). */
  url: string;
  requests: Array<{ path: string; body: { messages?: Array<{ role: string; content: unknown }> } }>;
  reply(text: string): void;
  close(): Promise<void>;
};

const FAKE_SOURCE = path.join(REPO, 'apps/server/src/test/fakes/openai.ts');

/**
 * Starts the fake. The test folder is left out of the server's build (a composite project may not
 * import it either), so the fake is compiled from its TypeScript source when the run needs it, by
 * tsx (a dev dependency of the workspace), rather than copied or moved out of the tests.
 */
export async function startModelFake(): Promise<ModelFake> {
  const module = (await tsImport(pathToFileURL(FAKE_SOURCE).href, import.meta.url)) as {
    startOpenAiFake(): Promise<ModelFake>;
  };
  const fake = await module.startOpenAiFake();
  fake.reply('Here is what our pages say about that [1].');
  return fake;
}

/** One answerable question asked of a bot with the fake model. */
export type ModelResult = {
  site: string;
  id: string;
  q: string;
  /** answer_mode of the reply: llm when the model was asked. */
  mode: string | null;
  /** The chat completions Parley sent while answering it. */
  calls: number;
  /** The question's pattern matches the system prompt of one of those calls. */
  factSent: boolean;
};

/**
 * Gives the model (an LLM setting's id, see addModel) to every bot of the set and asks each
 * answerable question in a new conversation.
 */
export async function modelPass(
  api: EvalApi,
  fake: ModelFake,
  llmId: number,
  trained: TrainedSite[],
): Promise<ModelResult[]> {
  const results: ModelResult[] = [];
  for (const { site, botId } of trained) {
    await useModel(api, botId, llmId);
    for (const question of site.questions.filter((q) => q.kind === 'answerable')) {
      const before = fake.requests.length;
      const { reply } = await send(api, botId, question.q);
      const prompts = fake.requests
        .slice(before)
        .filter((request) => request.path.endsWith('/chat/completions'))
        .map((request) => systemText(request.body.messages ?? []));
      const pattern = new RegExp(question.expect!, 'i');
      results.push({
        site: site.name,
        id: question.id,
        q: question.q,
        mode: reply.mode,
        calls: prompts.length,
        factSent: prompts.some((prompt) => pattern.test(prompt)),
      });
    }
  }
  return results;
}

/** `POST /settings/llm`: the fake, as an owner adds a local OpenAI-compatible server. */
export async function addModel(api: EvalApi, fake: ModelFake): Promise<number> {
  const setting = await api.call<{ id: number }>('POST', '/settings/llm', {
    name: 'Eval fake model',
    provider: 'openai-compatible',
    base_url: fake.url,
    model: 'eval-fake',
    api_key: 'sk-eval-fake-key',
  });
  return setting.id;
}

/** `PUT /chat/bots/:id` with only llm_model: the bot's other settings stay as they were. */
async function useModel(api: EvalApi, botId: number, llmId: number): Promise<void> {
  const form = new FormData();
  form.set('llm_model', String(llmId));
  await api.call('PUT', `/chat/bots/${botId}`, form);
}

/** The text of the system messages (a string, or text parts). */
function systemText(messages: Array<{ role: string; content: unknown }>): string {
  return messages
    .filter((message) => message.role === 'system')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : Array.isArray(message.content)
          ? message.content.map((part: { text?: string }) => part.text ?? '').join('\n')
          : '',
    )
    .join('\n');
}
