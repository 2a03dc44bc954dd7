import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type {
  FastifyInstance,
  FastifyPluginCallback,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';

export type CorsPolicies = {
  /** The console's API: the configured origins, with credentials (none: same origin only). */
  console: FastifyCorsOptions;
  /** Endpoints a customer's site calls (the widget's): any origin, without credentials. */
  public: FastifyCorsOptions;
  /** Whether a path (without its query) is one of the public endpoints. */
  isPublic: (path: string) => boolean;
};

type Hook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/**
 * Cross-origin rules by @fastify/cors, consulted only for requests that carry an Origin header.
 * A browser sends one with every cross-origin request and every preflight; CORS has nothing to say
 * to the others (the console's own same-origin reads, servers, curl). The library's per-request form
 * rebuilds its options and the Vary header on every call: a third of the server's CPU on
 * GET /api/auth/user, the console's most frequent call (bench/api). So it is handed a view of the
 * app whose hooks step aside for requests without Origin; API answers say `Vary: Origin` from
 * the security headers, so a cache still keeps the two kinds apart.
 */
export function registerCors(app: FastifyInstance, policies: CorsPolicies): Promise<void> {
  // What @fastify/cors 11 asks of the app it is given, and nothing more: a later major that asks for
  // more fails at start, in every API test, rather than quietly.
  const forBrowsers = {
    decorateRequest: app.decorateRequest.bind(app),
    options: app.options.bind(app),
    addHook: (name: 'onRequest', hook: Hook) =>
      app.addHook(name, function crossOrigin(request, reply, done) {
        if (request.headers.origin === undefined) return done();
        return hook.call(this, request, reply, done);
      }),
  };
  const choose = (
    request: FastifyRequest,
    callback: (error: Error | null, options: FastifyCorsOptions) => void,
  ) =>
    callback(null, policies.isPublic(request.url.split('?')[0] ?? '') ? policies.public : policies.console);
  const plugin = fastifyCors as unknown as FastifyPluginCallback<typeof choose>;
  return new Promise((resolve, reject) =>
    plugin(forBrowsers as unknown as FastifyInstance, choose, (error) => (error ? reject(error) : resolve())),
  );
}
