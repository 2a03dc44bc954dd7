import type { CollectionData, DiscountData, PageData, ProductData, StoreKind } from '@parley/contracts';
import { sha256 } from '../../../core/crypto.js';
import type { Section } from '../../knowledge/chunker.js';
import { markdownSections } from '../../knowledge/markdown.js';
import { hiddenByStatus } from './visibility.js';

/** What training reads of a record: its title, address and normalised data. */
export type RecordText = {
  kind: StoreKind;
  title: string;
  url: string | null;
  data: Record<string, unknown>;
  /** The platform's status: a draft or unpublished record hashes differently (visibility.ts). */
  status?: string | null;
};

const KIND_LABEL: Partial<Record<StoreKind, string>> = {
  product: 'Product',
  collection: 'Collection',
  category: 'Category',
  page: 'Page',
  blog_article: 'Blog article',
  policy: 'Policy',
  discount: 'Discount',
  coupon: 'Coupon',
};

/**
 * A record as the text a bot reads: a product is its title, price, variants with their prices and
 * stock, options, vendor, tags and address, then its description, so "how much is X" and "is X in
 * stock" find the passage that answers them. Headings split the description as they do elsewhere.
 */
export function recordSections(record: RecordText, currency: string | null): Section[] {
  const heading = `${KIND_LABEL[record.kind] ?? record.kind}: ${record.title}`;
  const facts = factsOf(record, currency);
  const [intro, ...rest] = markdownSections(bodyOf(record));
  // The body's text before its first heading stays with the facts: one passage holds both the price
  // and what the product is, so the answer quoting it has both.
  const lead = intro && !intro.headingPath ? [intro.text] : [];
  const sections = intro?.headingPath ? [intro, ...rest] : rest;
  const head: Section = { text: [heading, ...facts, ...lead].join('\n'), headingPath: record.title };
  const more = sections.map((s) => ({ ...s, headingPath: joinPath(record.title, s.headingPath) }));
  return [head, ...more].filter((s) => s.text.trim().length > 0);
}

/**
 * Changes exactly when what training would store changes, including whether shoppers may see it
 * at all: unpublishing a product retrains it (its knowledge goes), publishing it again brings it
 * back. Visible records hash as they always did, so nothing is retrained for this alone.
 */
export function recordHash(record: RecordText): string {
  const parts = [record.kind, record.title, record.url, record.data];
  const hidden = hiddenByStatus({ kind: record.kind, status: record.status ?? null });
  return sha256(JSON.stringify(hidden ? [...parts, 'hidden'] : parts));
}

const joinPath = (title: string, path?: string) => (path ? `${title} > ${path}` : title);

function factsOf(record: RecordText, currency: string | null): string[] {
  const link = record.url ? [`Link: ${record.url}`] : [];
  switch (record.kind) {
    case 'product':
      return [...productFacts(record.title, record.data as ProductData, currency), ...link];
    case 'collection':
    case 'category':
      return [...groupFacts(record.data as CollectionData), ...link];
    case 'discount':
    case 'coupon':
      return discountFacts(record.data as DiscountData);
    default:
      return link;
  }
}

function bodyOf(record: RecordText): string {
  const data = record.data as Partial<ProductData & PageData & CollectionData>;
  if (record.kind === 'product' || record.kind === 'collection' || record.kind === 'category') {
    return data.description ?? '';
  }
  if (record.kind === 'page' || record.kind === 'blog_article' || record.kind === 'policy')
    return data.body ?? '';
  return '';
}

const money = (amount: string | null, currency: string | null) =>
  amount === null ? null : currency ? `${amount} ${currency}` : amount;

/**
 * Price and stock as whole sentences naming the product: the extractive answer quotes sentences,
 * and "How much is the X?" shares its words with "The X costs ...". When variants differ, one
 * sentence names every variant's price and one every variant's stock, so whichever is quoted
 * answers for the size asked about (a one-letter size is no word a search can match).
 */
function productFacts(title: string, product: ProductData, storeCurrency: string | null): string[] {
  const currency = product.currency ?? storeCurrency;
  const facts: string[] = [];
  const variants = product.variants;
  const several = new Set(variants.map((v) => v.price)).size > 1;
  if (product.price !== null) {
    const each = variants.map((v) => `${variantLabel(v)} ${money(v.price, currency)}`).join(', ');
    facts.push(
      several
        ? `The ${title} costs from ${money(product.price, currency)}: ${each}.`
        : `The ${title} costs ${money(product.price, currency)}.`,
    );
  }
  facts.push(stockFact(title, variants));
  if (product.vendor) facts.push(`Brand: ${product.vendor}`);
  if (product.product_type) facts.push(`Type: ${product.product_type}`);
  if (product.categories.length > 0) facts.push(`Categories: ${product.categories.join(', ')}`);
  for (const option of product.options) facts.push(`${option.name}: ${option.values.join(', ')}`);
  if (variants.length > 1) {
    facts.push('Variants:');
    for (const variant of variants) facts.push(`- ${variantLine(variant, currency)}`);
  }
  if (product.tags.length > 0) facts.push(`Tags: ${product.tags.join(', ')}`);
  return facts;
}

type Variant = ProductData['variants'][number];

/** "Size L", "Size L / Color Red"; the variant's title when it has no options. */
const variantLabel = (variant: Variant) => {
  const options = Object.entries(variant.options);
  return options.length > 0 ? options.map(([name, value]) => `${name} ${value}`).join(' / ') : variant.title;
};

const left = (variant: Variant) => (variant.inventory != null ? ` (${variant.inventory} left)` : '');

function stockFact(title: string, variants: Variant[]): string {
  const inStock = variants.filter((v) => v.available);
  if (variants.length === 1 || inStock.length === 0 || inStock.length === variants.length) {
    const stock = variants.length === 1 && inStock.length === 1 ? left(variants[0]!) : '';
    return `The ${title} is ${inStock.length > 0 ? 'in stock' : 'out of stock'}${stock}.`;
  }
  const soldOut = variants.filter((v) => !v.available);
  const list = (some: Variant[], withStock: boolean) =>
    some.map((v) => `${variantLabel(v)}${withStock ? left(v) : ''}`).join(', ');
  return `The ${title} is in stock in ${list(inStock, true)}, and out of stock in ${list(soldOut, false)}.`;
}

function variantLine(variant: Variant, currency: string | null): string {
  const parts = [`${variant.title}: ${money(variant.price, currency)}`];
  if (variant.compare_at_price) parts.push(`was ${money(variant.compare_at_price, currency)}`);
  parts.push(variant.available ? 'in stock' : 'out of stock');
  if (variant.inventory != null) parts.push(`${variant.inventory} left`);
  if (variant.sku) parts.push(`SKU ${variant.sku}`);
  return parts.join(', ');
}

function groupFacts(group: CollectionData): string[] {
  const facts: string[] = [];
  if (group.products_count !== null) facts.push(`Products: ${group.products_count}`);
  if (group.product_titles.length > 0) facts.push(`Includes: ${group.product_titles.join(', ')}`);
  return facts;
}

function discountFacts(discount: DiscountData): string[] {
  const facts: string[] = [];
  if (discount.code) facts.push(`Code: ${discount.code}`);
  if (discount.summary) facts.push(discount.summary);
  if (discount.value) facts.push(`Value: ${discount.value}`);
  if (discount.minimum_amount) facts.push(`Minimum order: ${discount.minimum_amount}`);
  if (discount.starts_at) facts.push(`Starts: ${discount.starts_at.slice(0, 10)}`);
  if (discount.ends_at) facts.push(`Ends: ${discount.ends_at.slice(0, 10)}`);
  return facts;
}
