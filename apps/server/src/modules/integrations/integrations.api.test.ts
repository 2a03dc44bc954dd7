import type { AdminIntegrationList, AuthResponse, IntegrationStatusList, Plan } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../core/db/schema.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';

const as = (account: Account) => ({ token: account.access_token });

async function promoteToAdmin(server: TestServer, account: Account): Promise<Account> {
  await server.database.db.update(users).set({ userType: 'admin' }).where(eq(users.id, account.user.id));
  const login = await server.post<AuthResponse>('/api/auth/login', {
    username: account.user.email,
    password: account.password,
  });
  expect(login.status).toBe(200);
  return { ...account, ...login.body };
}

const byKey = (list: IntegrationStatusList) => Object.fromEntries(list.integrations.map((i) => [i.key, i]));

describe('a fresh install: no integration configured, plans off', () => {
  let server: TestServer;
  let owner: Account;
  let admin: Account;
  beforeAll(async () => {
    server = await startTestServer();
    owner = await signupOwner(server);
    admin = await promoteToAdmin(server, await signupOwner(server));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('says before any click which integrations this install is set up for, with their guides', async () => {
    const reply = await server.get<IntegrationStatusList>('/api/integrations/status', as(owner));
    expect(reply.status).toBe(200);
    expect(reply.body.integrations.map((i) => [i.key, i.enabled, i.in_plan, i.plan_with, i.oauth])).toEqual([
      ['instagram', false, true, null, false],
      ['messenger', false, true, null, false],
      ['whatsapp', false, true, null, false],
      ['shopify', false, true, null, false],
      // WooCommerce needs nothing from the operator; Notion works with an integration token.
      ['woocommerce', true, true, null, true],
      ['notion', true, true, null, false],
    ]);
    expect(byKey(reply.body).instagram!.doc).toEqual({
      slug: 'connecting-instagram',
      title: 'Connecting Instagram',
    });
    expect((await server.get('/api/integrations/status')).status).toBe(401);
  });

  it('lists for platform admins each integration’s settings (set or not, never values) and addresses', async () => {
    expect((await server.get('/api/admin/integrations', as(owner))).status).toBe(403);
    const reply = await server.get<AdminIntegrationList>('/api/admin/integrations', as(admin));
    expect(reply.status).toBe(200);
    expect(reply.body.public_url).toBe('http://parley.test');
    const meta = reply.body.integrations.find((i) => i.key === 'instagram')!;
    expect(meta.enabled).toBe(false);
    expect(meta.settings).toEqual([
      { name: 'META_APP_ID', set: false, required: true },
      { name: 'META_APP_SECRET', set: false, required: true },
      { name: 'META_VERIFY_TOKEN', set: false, required: false },
    ]);
    expect(meta.addresses.map((a) => a.url)).toEqual([
      'http://parley.test/integrations/meta/callback?channel=instagram',
      'http://parley.test/api/social/instagram/webhook',
    ]);
    const urls = Object.fromEntries(
      reply.body.integrations.map((i) => [i.key, i.addresses.map((a) => a.url)]),
    );
    expect(urls.shopify).toEqual([
      'http://parley.test/integrations/shopify/callback',
      'http://parley.test/api/shopify/webhooks',
    ]);
    expect(urls.notion).toEqual(['http://parley.test/api/notion/callback']);
    expect(urls.whatsapp).toEqual([
      'http://parley.test/whatsapp/callback',
      'http://parley.test/api/social/whatsapp/webhook',
    ]);
  });
});

describe('configured integrations, plans on', () => {
  let server: TestServer;
  let owner: Account;
  let admin: Account;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        PLAN_LIMITS: 'on',
        META_APP_ID: 'app-1',
        META_APP_SECRET: 'meta-secret-value',
        SHOPIFY_API_KEY: 'shopify-key',
        SHOPIFY_API_SECRET: 'shopify-secret-value',
        NOTION_CLIENT_ID: 'notion-client',
        NOTION_CLIENT_SECRET: 'notion-secret-value',
      },
    });
    owner = await signupOwner(server);
    admin = await promoteToAdmin(server, await signupOwner(server));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('says which are enabled, and names the plan that includes what the workspace’s does not', async () => {
    const plans = (await server.get<Plan[]>('/api/pricing/plans', as(owner))).body;
    const cheapest = (flag: 'instagram_integration' | 'whatsapp_integration' | 'facebook_integration') =>
      [...plans].filter((p) => p[flag]).sort((a, b) => a.price_monthly - b.price_monthly)[0]?.name ?? null;
    const status = byKey(
      (await server.get<IntegrationStatusList>('/api/integrations/status', as(owner))).body,
    );
    expect(status.instagram).toMatchObject({
      enabled: true,
      in_plan: false,
      plan_with: cheapest('instagram_integration'),
    });
    expect(status.messenger).toMatchObject({
      enabled: true,
      in_plan: false,
      plan_with: cheapest('facebook_integration'),
    });
    // WhatsApp needs its embedded signup configuration as well.
    expect(status.whatsapp).toMatchObject({ enabled: false, in_plan: false });
    expect(status.shopify).toMatchObject({ enabled: true, in_plan: true, plan_with: null });
    expect(status.notion).toMatchObject({ enabled: true, oauth: true });
    expect(cheapest('instagram_integration')).not.toBeNull();

    const admins = await server.get<AdminIntegrationList>('/api/admin/integrations', as(admin));
    const shopify = admins.body.integrations.find((i) => i.key === 'shopify')!;
    expect(shopify.settings.every((s) => s.set)).toBe(true);
    // Values never leave the server.
    expect(JSON.stringify(admins.body)).not.toMatch(/secret-value|shopify-key/);
  });
});
