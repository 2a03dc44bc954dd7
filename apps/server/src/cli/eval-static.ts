import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export type StaticSite = { url: string; close(): Promise<void> };

/**
 * A folder of HTML pages served on a loopback port, for the crawler to crawl as it would a site.
 * Only .html files are served (the crawler fetches no assets; robots.txt and sitemaps answer 404,
 * so it follows links); `/` is index.html. With `only` (paths under the folder), every other page
 * answers 404 too: a part of a large manual is served as a site of its own.
 */
export async function serveHtml(dir: string, only?: Set<string>): Promise<StaticSite> {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://site').pathname);
    const file = path.join(root, path.normalize(pathname === '/' ? '/index.html' : pathname));
    const served = !only || only.has(path.relative(root, file).split(path.sep).join('/'));
    if (!file.startsWith(`${root}${path.sep}`) || !file.endsWith('.html') || !served) {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
