import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small bakery's website, as an owner would have it: header navigation, a cookie banner, a
 * footer with the address on every page, marketing text, prices, hours, policies and an FAQ. The
 * answer tests (API and browser) crawl it on loopback and ask it a customer's questions, with the
 * Q&A pairs an owner would add.
 */
const NAV = ['Home', 'Menu', 'Delivery', 'Opening hours', 'About us', 'FAQ'];
const PATHS = ['/', '/menu', '/delivery', '/hours', '/about', '/faq'];

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title} | Blue Fern Bakery</title></head>
<body>
<div class="cookie-banner">We use cookies to improve your experience. <button>Accept</button></div>
<header><a href="/" class="logo">Blue Fern Bakery</a>
<nav><ul>${NAV.map((name, i) => `<li><a href="${PATHS[i]}">${name}</a></li>`).join('')}</ul></nav></header>
<main>${body}</main>
<footer><p>Blue Fern Bakery, 14 Alder Street, Portland. Call us on (503) 555-0142.</p>
<p>© 2026 Blue Fern Bakery. All rights reserved.</p></footer>
</body></html>`;

export const BAKERY_PAGES: Record<string, string> = {
  '/': layout(
    'Home',
    `<h1>Fresh bread and pastries, baked every morning</h1>
<p>Blue Fern is a neighbourhood bakery in Portland. We bake sourdough, croissants and seasonal cakes from organic flour, and we have done so since 2012.</p>
<p>Come by for a coffee and a cinnamon bun, or let us bring your order to your door.</p>`,
  ),
  '/menu': layout(
    'Menu',
    `<h1>Our menu</h1>
<h2>Bread</h2>
<ul><li>Country sourdough: $8</li><li>Seeded rye: $9</li><li>Baguette: $4</li></ul>
<h2>Pastries</h2>
<ul><li>Butter croissant: $3.50</li><li>Almond croissant: $4.50</li><li>Cinnamon bun: $4</li></ul>
<p>Our almond croissant is made with butter and is not vegan. The seeded rye and the baguette are vegan.</p>
<h2>Gluten-free</h2>
<p>We bake a gluten-free loaf on Fridays; it costs $10. Our kitchen handles wheat, so we cannot promise that anything is free of traces.</p>`,
  ),
  '/delivery': layout(
    'Delivery',
    `<h1>Delivery</h1>
<p>We deliver within 5 miles of the bakery, from Tuesday to Saturday, between 9 am and 1 pm.</p>
<p>Delivery costs $6, and is free on orders over $50.</p>
<p>Order before 8 pm for delivery the next morning.</p>`,
  ),
  '/hours': layout(
    'Opening hours',
    `<h1>Opening hours</h1>
<ul>
<li>Monday: closed</li>
<li>Tuesday to Friday: 7 am – 6 pm</li>
<li>Saturday: 8 am – 4 pm</li>
<li>Sunday: 9 am – 1 pm</li>
</ul>
<p>On public holidays we open from 9 am to noon.</p>`,
  ),
  '/about': layout(
    'About us',
    `<h1>About us</h1>
<p>Maya Okafor opened Blue Fern in 2012 after ten years as a pastry chef in Lyon.</p>
<p>Today a team of eight bakes through the night so the shelves are full when the doors open. We buy our flour from two mills in the Willamette Valley.</p>`,
  ),
  '/faq': layout(
    'FAQ',
    `<h1>Frequently asked questions</h1>
<h3>Can I park nearby?</h3>
<p>Yes, there is free street parking on Alder Street and a paid car park behind the bakery.</p>
<h3>Do you take card payments?</h3>
<p>We take all major cards and contactless payments; we no longer take cheques.</p>`,
  ),
};

/** The pairs its owner added in the console. */
export const BAKERY_QNA = [
  {
    question: 'Do you sell birthday cakes?',
    answer: 'Yes! Custom celebration cakes start at $45. Order at least three days ahead.',
  },
  {
    question: 'Do you have gluten-free bread?',
    answer: 'Yes, a gluten-free loaf every Friday, for $10.',
  },
  {
    question: 'Is there parking?',
    answer: 'Yes, free street parking on Alder Street and a paid car park behind the bakery.',
  },
  { question: 'Can I pay by card?', answer: 'Yes, we take all major cards and contactless payments.' },
  {
    question: 'Do you cater for events?',
    answer: 'We cater for weddings and office events of up to 200 guests. Write to us for a quote.',
  },
];

export type BakerySite = {
  url: string;
  /** Adds /visit, a page (linked from nowhere, so never crawled) embedding the bot's widget. */
  embed(uuid: string, scriptSrc: string): void;
  close(): Promise<void>;
};

/** Serves the bakery on a loopback port (404 for anything else, robots.txt included). */
export async function serveBakery(): Promise<BakerySite> {
  const site = await servePages({ ...BAKERY_PAGES });
  return {
    url: site.url,
    embed: (uuid, scriptSrc) => {
      site.pages['/visit'] = layout(
        'Visit',
        `<h1>Visit us</h1><script src="${scriptSrc}" data-bot="${uuid}" defer></script>`,
      );
    },
    close: site.close,
  };
}

/** Serves pages by path on a loopback port, as HTML in UTF-8 (404 for any other path, robots.txt included). */
export async function servePages(pages: Record<string, string>) {
  const server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://site').pathname];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
