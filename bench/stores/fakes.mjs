// bench/stores: the API tests' own fakes (apps/server/src/test/fakes/woocommerce.ts and shopify.ts,
// TypeScript loaded through tsx, as vitest loads them), and the baseline: a plain loop that fetches
// every page of a catalogue from a fake at the adapter's page size, nothing else done with it.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const load = (file) => tsImport(pathToFileURL(path.join(root, file)).href, import.meta.url);

export const { startWooFake } = await load('apps/server/src/test/fakes/woocommerce.ts');
export const { startShopifyFake } = await load('apps/server/src/test/fakes/shopify.ts');
/** The Shopify adapter's own query text per kind, from the built server (the same bytes it sends). */
const { KIND_QUERIES } = await import(
  pathToFileURL(path.join(root, 'apps/server/dist/modules/stores/shopify/shopify.client.js')).href
);

/** The WooCommerce client's page size (woo.client.ts WOO_PAGE_SIZE, WooCommerce's maximum). */
export const WOO_PAGE = 100;
/** The Shopify client's page size when a page's cost allows it (shopify.client.ts MAX_PAGE). */
export const SHOPIFY_PAGE = 250;

/**
 * Every product of a fake WooCommerce store, `per_page=100` with the adapter's listing parameters
 * (oldest first by id, published only), keys as HTTP Basic; each page's JSON parsed. Resolves with
 * ms, products and pages.
 */
export async function wooAlone(store) {
  const auth = `Basic ${Buffer.from(`${store.consumerKey}:${store.consumerSecret}`).toString('base64')}`;
  const started = performance.now();
  let products = 0;
  let pages = 0;
  for (let page = 1; ; page++) {
    const query = new URLSearchParams({
      orderby: 'id',
      order: 'asc',
      status: 'publish',
      page: String(page),
      per_page: String(WOO_PAGE),
    });
    const response = await fetch(`${store.url}/wp-json/wc/v3/products?${query}`, {
      headers: { authorization: auth, accept: 'application/json' },
    });
    if (!response.ok)
      throw new Error(`fake WooCommerce answered ${response.status}: ${await response.text()}`);
    const items = await response.json();
    const totalPages = Number(response.headers.get('x-wp-totalpages'));
    products += items.length;
    pages += 1;
    if (items.length < WOO_PAGE || page >= totalPages) break;
  }
  return { ms: performance.now() - started, products, pages };
}

/**
 * Every product of a fake Shopify shop through the GraphQL Admin API: the adapter's products query
 * (KIND_QUERIES.product), `first: 250`, following the cursors; each answer's JSON parsed. Uses the
 * shop's offline token (no OAuth). Resolves with ms, products and pages.
 */
export async function shopifyAlone(fake, shop, apiVersion) {
  const url = `${fake.url}/shops/${shop.domain}/admin/api/${apiVersion}/graphql.json`;
  const { query, root: field } = KIND_QUERIES.product;
  const started = performance.now();
  let products = 0;
  let pages = 0;
  let after = null;
  for (;;) {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-shopify-access-token': shop.token,
      },
      body: JSON.stringify({ query, variables: { first: SHOPIFY_PAGE, after } }),
    });
    const body = await response.json();
    if (!response.ok || body.errors)
      throw new Error(`fake Shopify answered ${response.status}: ${JSON.stringify(body.errors)}`);
    const connection = body.data[field];
    products += connection.nodes.length;
    pages += 1;
    if (!connection.pageInfo.hasNextPage || connection.nodes.length === 0) break;
    after = connection.pageInfo.endCursor;
  }
  return { ms: performance.now() - started, products, pages };
}
