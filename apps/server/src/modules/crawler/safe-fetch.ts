import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import ipaddr from 'ipaddr.js';

/** A fetch the crawler refused to make (scheme, address, redirect); its message is shown to the user. */
export class BlockedUrlError extends Error {}

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to every address it has (injectable so tests can fake DNS). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type SafeFetchOptions = {
  /** Lift the address rule (tests only: CRAWLER_ALLOW_PRIVATE). Schemes are still checked. */
  allowPrivate: boolean;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  resolve?: Resolver;
  /** Why an address is refused, or null; `forbiddenAddressReason` unless a test narrows it. */
  addressPolicy?: (address: string) => string | null;
  /** Which content types to read; others answer with `body: null` (the response is dropped). */
  accept?: (contentType: string) => boolean;
  maxRedirects?: number;
  signal?: AbortSignal;
  /** Awaited before every request, redirects included (the crawler's Crawl-delay). */
  beforeRequest?: () => Promise<void>;
  /**
   * Validators of the copy we have: sent as If-None-Match / If-Modified-Since on the first request
   * only (they belong to this URL, not to a redirect's target); a 304 answers with `body: null`.
   */
  validators?: Validators;
};

export type Validators = { etag: string | null; lastModified: string | null };

export type SafeResponse = {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** Null when the content type was not accepted or the status is not 2xx. */
  body: Buffer | null;
} & Validators;

const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/**
 * Why an address may not be fetched, or null when it is a public unicast address. Loopback,
 * private, link-local (cloud metadata at 169.254.169.254 included), carrier-grade NAT, multicast,
 * unspecified, broadcast, reserved, unique-local IPv6 and every IPv6 form that embeds an IPv4
 * address (mapped, NAT64, 6to4, Teredo) are refused.
 */
export function forbiddenAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'is not a valid address';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    return 'is an IPv4-mapped IPv6 address';
  const range = parsed.range();
  return range === 'unicast' ? null : `is a ${range} address`;
}

/** Checks a URL's scheme; answers the parsed URL. */
export function parseCrawlUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedUrlError(`Refused to fetch ${raw}: not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BlockedUrlError(`Refused to fetch ${raw}: only http and https URLs can be crawled`);
  if (url.username || url.password)
    throw new BlockedUrlError(`Refused to fetch ${raw}: URLs with credentials cannot be crawled`);
  return url;
}

/**
 * Resolves the URL's host (every address) and refuses it when any address is not public. The WHATWG
 * URL parser has already turned numeric forms (2130706433, 0x7f.1, 0177.0.0.1) into dotted quads.
 * Answers the address to connect to, so the connection goes where the check looked.
 */
export async function checkUrl(
  raw: string,
  options: Pick<SafeFetchOptions, 'allowPrivate' | 'resolve' | 'addressPolicy'>,
): Promise<{ url: URL; address: ResolvedAddress }> {
  const url = parseCrawlUrl(raw);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      throw new BlockedUrlError(`Could not fetch ${url.href}: the host ${host} could not be resolved`);
    }
    if (addresses.length === 0)
      throw new BlockedUrlError(`Could not fetch ${url.href}: the host ${host} could not be resolved`);
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const reason = (options.addressPolicy ?? forbiddenAddressReason)(address);
      if (reason)
        throw new BlockedUrlError(
          `Refused to fetch ${url.href}: ${host} resolves to ${address}, which ${reason}; only public addresses can be crawled`,
        );
    }
  }
  return { url, address: addresses[0]! };
}

/**
 * GET with the SSRF rule on every hop: redirects are followed by hand (at most 5), each target
 * checked again, and every connection made to the address that was checked (no second lookup).
 */
export async function safeFetch(raw: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const maxRedirects = options.maxRedirects ?? 5;
  let current = raw;
  for (let hop = 0; ; hop++) {
    const { url, address } = await checkUrl(current, options);
    await options.beforeRequest?.();
    const response = await requestOnce(url, address, options, hop === 0 ? options.validators : undefined);
    if (response.location !== null) {
      if (hop >= maxRedirects) throw new BlockedUrlError(`Too many redirects from ${raw}`);
      current = new URL(response.location, url).href;
      continue;
    }
    return response.result;
  }
}

type Once = { location: string | null; result: SafeResponse };

const conditionalHeaders = (validators: Validators | undefined): Record<string, string> => ({
  ...(validators?.etag ? { 'if-none-match': validators.etag } : {}),
  ...(validators?.lastModified ? { 'if-modified-since': validators.lastModified } : {}),
});

/** The Content-Encodings asked for, and how each is undone (null: as sent). */
const DECOMPRESSORS: Record<string, (() => Transform) | null> = {
  identity: null,
  '': null,
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
};

function requestOnce(
  url: URL,
  address: ResolvedAddress,
  options: SafeFetchOptions,
  validators: Validators | undefined,
): Promise<Once> {
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all)
      (callback as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Once>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const request = client.get(
      url,
      {
        lookup: pinned,
        headers: {
          'user-agent': options.userAgent,
          accept: 'text/html,application/xhtml+xml,*/*;q=0.5',
          // A page travels in a fifth of its bytes or less; decompressed under the same byte limit.
          'accept-encoding': 'gzip, br',
          ...conditionalHeaders(validators),
        },
        signal: options.signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const contentType = String(response.headers['content-type'] ?? '').toLowerCase();
        const answered = {
          url: url.href,
          status,
          contentType,
          etag: response.headers.etag ?? null,
          lastModified: response.headers['last-modified'] ?? null,
        };
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          settled = true;
          clearTimeout(timer);
          resolve({ location, result: { ...answered, body: null } });
          return;
        }
        const wanted = status >= 200 && status < 300 && (options.accept ? options.accept(contentType) : true);
        if (!wanted) {
          response.destroy();
          settled = true;
          clearTimeout(timer);
          resolve({ location: null, result: { ...answered, body: null } });
          return;
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > options.maxBytes) {
          response.destroy();
          fail(new Error(`${url.href} is larger than ${options.maxBytes} bytes`));
          return;
        }
        const coding = String(response.headers['content-encoding'] ?? 'identity')
          .trim()
          .toLowerCase();
        const decompress = DECOMPRESSORS[coding];
        if (decompress === undefined) {
          response.destroy();
          fail(new Error(`${url.href} was sent in an encoding this crawler cannot read (${coding})`));
          return;
        }
        // The limit counts the bytes as read, so a small compressed answer cannot unpack to gigabytes.
        const body = decompress ? response.pipe(decompress()) : response;
        const stop = (error: Error) => {
          response.destroy();
          body.destroy();
          fail(error);
        };
        const parts: Buffer[] = [];
        let size = 0;
        body.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            stop(new Error(`${url.href} is larger than ${options.maxBytes} bytes`));
            return;
          }
          parts.push(chunk);
        });
        body.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ location: null, result: { ...answered, body: Buffer.concat(parts) } });
        });
        body.on('error', (error) => stop(new Error(`${url.href} could not be read: ${error.message}`)));
        if (body !== response) response.on('error', stop);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      fail(new Error(`${url.href} did not answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
  });
}
