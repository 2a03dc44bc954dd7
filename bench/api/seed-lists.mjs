// The rows behind bench/api's lists other than the bots list: conversations with their messages and
// leads, a Shopify store's products, a WhatsApp number's contacts. Written with SQL through the
// server's own db helpers, not through the API: conversations come from visitors and channels,
// products from a store's sync and contacts from Meta's onboarding, none of which the API can make
// here without the fake servers. Run while no Parley process holds the database (PGlite admits one).
import { openDatabase } from '../../apps/server/dist/core/db/database.js';
import { leads } from '../../apps/server/dist/modules/bots/bots.schema.js';
import { conversations, messages } from '../../apps/server/dist/modules/chat/chat.schema.js';
import { storeRecords, stores } from '../../apps/server/dist/modules/stores/stores.schema.js';
import {
  whatsappAccounts,
  whatsappContacts,
} from '../../apps/server/dist/modules/whatsapp/whatsapp.schema.js';

const HOUR = 3_600_000;
/** A conversation's hand-off states in turn: half wait for a person, so the inbox's first filter fills a page. */
const STATES = ['human_requested', 'bot', 'human_requested', 'human', 'human_requested', 'closed'];

/**
 * `rows` of each kind for the user's tenant: conversations spread over `botIds` (every fourth one the
 * user's own console chat with the first bot, the others visitors'), each with four messages and, on
 * every third, a lead; a store with `rows` products; a number with `rows` contacts. Resolves with
 * the ids the list routes name.
 */
export async function seedLists(options, { tenantId, userId, botIds, rows }) {
  const database = await openDatabase(options);
  try {
    const { db } = database;
    await seedConversations(db, { tenantId, userId, botIds, rows });
    const storeId = await seedStore(db, { tenantId, userId, rows });
    const accountId = await seedContacts(db, { tenantId, botId: botIds[0], rows });
    return { tenantId, userId, botId: botIds[0], storeId, accountId };
  } finally {
    await database.close();
  }
}

async function seedConversations(db, { tenantId, userId, botIds, rows }) {
  const now = Date.now();
  const values = Array.from({ length: rows }, (_, i) => {
    const own = i % 4 === 0;
    const state = STATES[i % STATES.length];
    const at = new Date(now - i * HOUR);
    return {
      tenantId,
      botId: own ? botIds[0] : botIds[i % botIds.length],
      userId: own ? userId : null,
      visitorId: own ? null : `visitor-${i}`,
      name: `Where is my order #${1000 + i}?`,
      channel: i % 5 === 1 ? 'instagram' : 'bot',
      userProfile:
        i % 5 === 1 ? { name: `Insta ${i}`, profile_pic: `https://cdn.example.com/p/${i}.jpg` } : null,
      handoffState: state,
      humanRequestedAt: state === 'bot' ? null : new Date(at.getTime() - 5 * 60_000),
      isHelpdeskInControl: state === 'human',
      adminId: state === 'human' ? userId : null,
      adminName: state === 'human' ? 'Bench Mark' : null,
      assigneeId: i % 3 === 0 ? userId : null,
      closedAt: state === 'closed' ? at : null,
      pageUrl: own ? null : `https://shop.example.com/products/item-${i}`,
      unreadCount: i % 2,
      lastSeq: 4,
      lastMessageAt: at,
      createdAt: new Date(at.getTime() - HOUR),
    };
  });
  const made = await db.insert(conversations).values(values).returning();
  await db.insert(messages).values(made.flatMap(messagesOf));
  const leadRows = made
    .filter((_, i) => i % 3 === 1)
    .map((c, i) => ({
      tenantId,
      botId: c.botId,
      conversationId: c.id,
      name: `Visitor ${c.id}`,
      email: `visitor-${c.id}@example.com`,
      fields: { phone: '+15550100' },
      source: i % 2 === 0 ? 'contact_form' : 'lead_form',
    }));
  if (leadRows.length > 0) await db.insert(leads).values(leadRows);
}

/** A question, an answer with its sources, a follow-up and its answer. */
function messagesOf(c) {
  const base = c.lastMessageAt.getTime() - 4 * 60_000;
  const message = (seq, type, text, extra = {}) => ({
    tenantId: c.tenantId,
    conversationId: c.id,
    botId: c.botId,
    seq,
    messageType: type,
    message: text,
    createdAt: new Date(base + seq * 60_000),
    ...extra,
  });
  const answer = {
    sources: [
      {
        source_type: 'web',
        page_number: null,
        page_url: 'https://shop.example.com/shipping',
        page_title: 'Shipping',
      },
    ],
    // A channel's answer carries its delivery as the send job left it (wamid and parts are not shown).
    metadata: {
      answer_mode: 'llm',
      ...(c.channel === 'instagram' ? { delivery: { status: 'sent', error: null, parts_sent: 1 } } : {}),
    },
    promptTokens: 812,
    completionTokens: 96,
  };
  return [
    message(1, 'user', `Hello, I ordered #${1000 + c.id} last week. Where is it?`),
    message(2, 'bot', 'Orders ship within two working days; you get a tracking link by email.', answer),
    message(3, 'user', 'I did not get any email. Can a person look at it?'),
    message(4, 'bot', 'Someone from the team will look at your order shortly.', answer),
  ];
}

async function seedStore(db, { tenantId, userId, rows }) {
  const [store] = await db
    .insert(stores)
    .values({
      tenantId,
      userId,
      platform: 'shopify',
      domain: 'bench-store.myshopify.com',
      name: 'Bench Store',
      storefrontUrl: 'https://bench-store.example.com',
      currency: 'USD',
      // Never read by the list; a sealed value is only opened to call Shopify.
      credentialsSealed: 'bench',
      lastSyncedAt: new Date(),
    })
    .returning();
  const records = Array.from({ length: rows }, (_, i) => ({
    tenantId,
    storeId: store.id,
    kind: 'product',
    externalId: `gid://shopify/Product/${100000 + i}`,
    title: `Merino crew sweater ${i}`,
    url: `https://bench-store.example.com/products/merino-crew-${i}`,
    status: i % 10 === 0 ? 'draft' : 'active',
    lookupKey: null,
    data: {
      description:
        'A soft merino wool crew neck, knitted in Portugal. Machine washable at 30 °C; lies flat to dry.',
      vendor: 'Bench Knits',
      product_type: 'Sweaters',
      tags: ['wool', 'winter', `size-${i % 5}`],
      price: `${(49 + (i % 30)).toFixed(2)}`,
      currency: 'USD',
      variants: [
        { id: `gid://shopify/ProductVariant/${200000 + i}`, title: 'S', price: '59.00', sku: `MC-${i}-S` },
        { id: `gid://shopify/ProductVariant/${300000 + i}`, title: 'M', price: '59.00', sku: `MC-${i}-M` },
      ],
      image: `https://cdn.example.com/products/${i}.jpg`,
    },
    contentHash: `hash-${i}`,
    remoteUpdatedAt: new Date(Date.now() - i * HOUR),
    trainingStatus: i % 4 === 0 ? null : 'completed',
  }));
  await db.insert(storeRecords).values(records);
  return store.id;
}

async function seedContacts(db, { tenantId, botId, rows }) {
  const [account] = await db
    .insert(whatsappAccounts)
    .values({
      tenantId,
      wabaId: 'bench-waba',
      phoneNumberId: `bench-${tenantId}-${Date.now()}`,
      displayPhoneNumber: '+1 555 010 0000',
      verifiedName: 'Bench',
      // Never read by the list; a sealed token is only opened to call Meta.
      accessToken: 'bench',
      botId,
    })
    .returning();
  const contacts = Array.from({ length: rows }, (_, i) => ({
    tenantId,
    accountId: account.id,
    phone: `+1555${String(1000000 + i).padStart(7, '0')}`,
    name: i % 7 === 0 ? null : `Customer ${i}`,
    email: i % 3 === 0 ? null : `customer-${i}@example.com`,
    tags: i % 2 === 0 ? ['customers', `cohort-${i % 6}`] : ['leads'],
    attributes: { city: ['Lisbon', 'Pune', 'Austin'][i % 3], plan: i % 4 === 0 ? 'pro' : 'free' },
    optedOutAt: i % 11 === 0 ? new Date(Date.now() - i * HOUR) : null,
  }));
  await db.insert(whatsappContacts).values(contacts);
  return account.id;
}
