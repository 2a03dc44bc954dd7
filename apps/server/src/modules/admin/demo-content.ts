import type { DemoKind, ProductData } from '@parley/contracts';
import type { RemoteRecord } from '../stores/core/adapter.js';

/**
 * What the Capability Demos' bots know. Bundled here, so seeding never reaches the internet; each
 * goes through the real pipeline (Q&A pairs trained by their jobs, a catalogue trained by the stores
 * core), and each card says plainly what its bot learnt from.
 */
export type DemoDefinition = {
  kind: DemoKind;
  title: string;
  description: string;
  source: string;
  botName: string;
  welcome: string;
  tryAsking: string[];
  qna: Array<{ question: string; answer: string }>;
};

const DOCS_QNA = [
  {
    question: 'How do I add my bot to my website?',
    answer:
      'Open the bot, choose Embed, copy the script tag and paste it before the closing body tag of your pages. The chat bubble appears on every page that loads the script; list your site under allowed origins to keep other sites from embedding it.',
  },
  {
    question: 'How can a visitor talk to a human?',
    answer:
      'When the bot cannot answer, or when the visitor asks for a person, the conversation is handed off to your team. Agents see it in the Inbox, take control, and reply on the channel the visitor used; the bot stays silent until the agent hands it back.',
  },
  {
    question: 'What can I train my bot on?',
    answer:
      'Upload files (PDF, Word, Excel, text), crawl your website, connect Notion, add question and answer pairs, or connect a Shopify or WooCommerce store. Each source is split into passages and the bot cites the pages it answers from.',
  },
  {
    question: 'Which AI models does Parley support?',
    answer:
      'Any OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio, OpenRouter), Anthropic and Google. Without a model the bot still answers, quoting the best matching passages with their sources.',
  },
  {
    question: 'How do I invite my team?',
    answer:
      'Go to Roles, invite a teammate by email and pick their role. The invitation link is valid for 7 days; you can resend or revoke it from the same screen.',
  },
  {
    question: 'Can the bot collect leads?',
    answer:
      'Yes. Turn on the lead form in the bot settings, choose the fields to ask for, and every submission appears under Leads with the conversation it came from.',
  },
];

const BOOKING_QNA = [
  {
    question: 'What happens in the onboarding call?',
    answer:
      'A 30-minute video call with a Parley specialist: we connect your first source, tune the welcome message and embed the widget on your site together.',
  },
  {
    question: 'How much does the onboarding call cost?',
    answer: 'The onboarding call is free for every plan, including the free plan.',
  },
  {
    question: 'Can I reschedule my call?',
    answer:
      'Yes. The confirmation email holds a link to reschedule or cancel at any time up to an hour before the call.',
  },
];

export const DEMOS: Record<DemoKind, DemoDefinition> = {
  docs: {
    kind: 'docs',
    title: 'Docs bot',
    description: 'Answers questions about a product from its help content, with the source of every answer.',
    source: `${DOCS_QNA.length} help-centre questions and answers about Parley, trained as Q&A pairs.`,
    botName: 'Parley Help (demo)',
    welcome: 'Hi! Ask me anything about setting up Parley.',
    tryAsking: ['How do I add my bot to my website?', 'How can a visitor talk to a human?'],
    qna: DOCS_QNA,
  },
  store: {
    kind: 'store',
    title: 'Store bot',
    description: 'Helps shoppers find products, prices and stock from a store catalogue.',
    source:
      'A sample catalogue of 6 products, stored and trained as a store would be after a sync. No real shop is connected, so order look-ups are not available.',
    botName: 'Parley Outdoor Shop (demo)',
    welcome: 'Welcome to the Parley Outdoor Shop! What are you looking for?',
    tryAsking: ['How much is the trail backpack?', 'Do you have a waterproof jacket?'],
    qna: [],
  },
  booking: {
    kind: 'booking',
    title: 'Booking bot',
    description: 'Answers questions and offers a booking button that opens a calendar to book a call.',
    source: `${BOOKING_QNA.length} questions and answers about an onboarding call, and a calendar booking link (Calendly).`,
    botName: 'Parley Onboarding (demo)',
    welcome: 'Hello! I can tell you about our onboarding call and book one for you.',
    tryAsking: ['What happens in the onboarding call?', 'I want to book a call'],
    qna: BOOKING_QNA,
  },
};

export const DEMO_BOOKING = {
  title: 'Book an onboarding call',
  message: 'Pick a time that suits you for a free 30-minute onboarding call.',
  provider: 'calendly',
  url: 'https://calendly.com/parley-demo/onboarding',
};

export const DEMO_STORE = {
  domain: 'demo-shop.parley.invalid',
  name: 'Parley Outdoor Shop (sample catalogue)',
  storefrontUrl: 'https://demo-shop.parley.invalid',
  currency: 'USD',
};

const product = (
  id: string,
  title: string,
  price: string,
  inventory: number,
  description: string,
  tags: string[],
): RemoteRecord<'product'> => {
  const data: ProductData = {
    description,
    vendor: 'Parley Outdoor',
    product_type: tags[0] ?? null,
    tags,
    options: [],
    variants: [
      {
        title: 'Default',
        sku: `DEMO-${id}`,
        price,
        compare_at_price: null,
        inventory,
        available: inventory > 0,
        options: {},
      },
    ],
    image_url: null,
    price,
    currency: 'USD',
    categories: tags,
  };
  return {
    kind: 'product',
    externalId: id,
    title,
    url: `${DEMO_STORE.storefrontUrl}/products/${id}`,
    status: 'publish',
    updatedAt: null,
    lookupKey: null,
    data,
  } as RemoteRecord<'product'>;
};

export const DEMO_PRODUCTS: RemoteRecord<'product'>[] = [
  product(
    'trail-backpack',
    'Trail Backpack 30L',
    '89.00',
    14,
    'A light 30-litre backpack for day hikes, with a padded laptop sleeve, rain cover and hip belt.',
    ['backpacks', 'hiking'],
  ),
  product(
    'storm-jacket',
    'Storm Waterproof Jacket',
    '149.00',
    6,
    'A waterproof, breathable shell jacket with taped seams and an adjustable hood. Packs into its own pocket.',
    ['jackets', 'waterproof'],
  ),
  product(
    'summit-tent',
    'Summit 2-Person Tent',
    '229.00',
    3,
    'A freestanding two-person tent for three seasons, 2.1 kg, pitched in five minutes.',
    ['tents', 'camping'],
  ),
  product(
    'merino-socks',
    'Merino Hiking Socks (2 pairs)',
    '24.00',
    40,
    'Cushioned merino wool socks that stay warm when wet and do not smell after long days.',
    ['socks', 'hiking'],
  ),
  product(
    'headlamp',
    'Beam 400 Headlamp',
    '39.00',
    0,
    'A rechargeable 400-lumen headlamp with a red night mode; charges over USB-C. Currently out of stock.',
    ['lights', 'camping'],
  ),
  product(
    'water-bottle',
    'Insulated Water Bottle 750 ml',
    '29.00',
    25,
    'Keeps drinks cold for 24 hours or hot for 12; stainless steel, leak-proof lid.',
    ['bottles', 'hiking'],
  ),
];
