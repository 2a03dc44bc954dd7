import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { API_DOCS_PREFIX, API_PREFIX } from './auth-plugin.js';

/**
 * Helmet's secure headers, computed once at start: they do not depend on the request, and building
 * them per request (as the Fastify plugin does) costs more than the token check. HSTS and
 * upgrade-insecure-requests only when Parley is served over https, so a console opened over plain
 * http on a LAN address still loads its scripts.
 */
export type HeaderOptions = { https: boolean; googleSignIn?: boolean };

export function registerSecurityHeaders(app: FastifyInstance, options: HeaderOptions): void {
  const document = computeHeaders(options);
  const pick = (names: Set<string>) => Object.entries(document).filter(([name]) => names.has(name));
  const documentHeaders = Object.entries(document);
  const assetHeaders = pick(ASSET_HEADERS);
  const apiHeaders = [...pick(API_KEPT_HEADERS), ...Object.entries(API_HEADERS)];
  // A callback hook, not an async one: every request runs it, and a promise per request shows in
  // bench/api's profile. The request id goes in every answer too, errors included, so a user's
  // report can be matched to the server's log lines.
  app.addHook('onRequest', (request, reply, done) => {
    const { url } = request;
    if (url.startsWith(ASSETS)) {
      for (const [name, value] of assetHeaders) reply.header(name, value);
    } else {
      // Swagger UI is a page: the document's headers.
      const api = url.startsWith(API) && !url.startsWith(API_DOCS_PREFIX);
      for (const [name, value] of api ? apiHeaders : documentHeaders) reply.header(name, value);
      reply.header('x-request-id', request.id);
    }
    done();
  });
}

/** The web build's hashed, immutable scripts, styles and fonts. */
const ASSETS = '/assets/';
/**
 * What still means something on a script or a style: the rest of helmet's headers (CSP, framing,
 * referrer, COOP...) govern documents, and on /login's five assets they cost 2.6 KB of its budget.
 */
const ASSET_HEADERS = new Set([
  'x-content-type-options',
  'cross-origin-resource-policy',
  'strict-transport-security',
]);

const API = `${API_PREFIX}/`;
/**
 * The API's answers (JSON, files, CSV) are never documents a browser renders as the console, so they
 * carry what OWASP's REST cheat sheet asks of an API: no sniffing, no framing, no referrer, and a
 * policy that lets nothing load, should a stored file ever be opened as a page. Helmet's document
 * headers (COOP, origin-agent-cluster, DNS prefetch, IE's download and XSS switches) would add
 * 0.5 KB and a tenth of the CPU to every call (bench/api). Routes that serve cross-site (the widget's
 * images, its script) set their own cross-origin resource policy.
 */
const API_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  // An answer may differ by the caller's origin (core/http/cors.ts): caches must keep them apart.
  vary: 'Origin',
};
const API_KEPT_HEADERS = new Set([...ASSET_HEADERS, 'referrer-policy']);

export function computeHeaders({ https, googleSignIn = false }: HeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
    contentSecurityPolicy: {
      directives: { ...(googleSignIn ? withGoogle(CSP) : CSP), upgradeInsecureRequests: https ? [] : null },
    },
    strictTransportSecurity: https,
    // Meta's WhatsApp embedded signup is a popup that reports back to the console by postMessage:
    // `same-origin` would sever it from its opener. Popups the console opens may keep it.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  })({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

const CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // MUI (emotion) and Swagger UI inject styles at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'ws:', 'wss:'],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
};

/** Google's sign-in button loads its script, frame and styles from accounts.google.com. */
const GOOGLE = 'https://accounts.google.com';
const withGoogle = (csp: typeof CSP) => ({
  ...csp,
  scriptSrc: [...csp.scriptSrc, `${GOOGLE}/gsi/client`],
  styleSrc: [...csp.styleSrc, `${GOOGLE}/gsi/style`],
  frameSrc: [`${GOOGLE}/gsi/`],
  connectSrc: [...csp.connectSrc, `${GOOGLE}/gsi/`],
});
