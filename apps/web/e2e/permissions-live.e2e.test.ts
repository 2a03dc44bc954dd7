import { MESSAGES } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type Harness,
  joinAsTeammate,
  type Person,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
  tokenOf,
} from './harness';

/** Within this the teammate's menu must follow, without a reload (the top bar polls every 5 s). */
const FOLLOWS_WITHIN_MS = 9000;

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

async function menuLabels(page: Page): Promise<string[]> {
  await menu(page).getByRole('link').first().waitFor();
  return (await menu(page).getByRole('link').allInnerTexts()).map((t) => t.trim());
}

/** A mark on the page's window: still there later means the page was never reloaded. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
}
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

/** A role of the owner's workspace with read on these features (set up through the API). */
async function createRoleViaApi(h: Harness, ownerPage: Page, name: string, reads: string[]): Promise<void> {
  const token = await tokenOf(ownerPage);
  const role = await apiCall<{ id: number }>(h, token, 'POST', '/role/create', { name });
  const features = await apiCall<Array<{ id: number; name: string }>>(h, token, 'GET', '/role/features');
  await apiCall(h, token, 'POST', '/role/assign-feature-permissions', {
    role_id: role.id,
    feature_permissions: features
      .filter((f) => reads.includes(f.name))
      .map((f) => ({ feature_permission_id: f.id, can_create: false, can_read: true, can_write: false })),
  });
}

describe('a teammate whose permissions grow sees it without reloading', () => {
  let h: Harness;
  let owner: Person;
  let ownerPage: Page;
  beforeAll(async () => {
    h = await startHarness();
    owner = person('opal');
    ownerPage = (await h.newPage()).page;
    await signUp(ownerPage, owner);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("an agent's menu gains Leads moments after the owner grants their role read on it", async () => {
    screenshotOnFailure(ownerPage, 'permissions-live-owner');
    await createRoleViaApi(h, ownerPage, 'Front desk', ['Home', 'Profile', 'Inbox']);
    const { page } = await joinAsTeammate(h, ownerPage, 'Front desk', person('ari'));
    screenshotOnFailure(page, 'permissions-live-agent');
    const before = await menuLabels(page);
    expect(before).toContain('Support Inbox');
    expect(before).not.toContain('Leads');
    await markDocument(page);

    await ownerPage.goto('/roles?tab=roles');
    await ownerPage.getByRole('combobox', { name: 'Role' }).click();
    await ownerPage.getByRole('option', { name: 'Front desk' }).click();
    await ownerPage.getByRole('checkbox', { name: 'Read Leads' }).check();
    await ownerPage.getByRole('button', { name: 'Save permissions' }).click();
    await ownerPage
      .getByRole('alert')
      .filter({ hasText: MESSAGES.roles.permissionsUpdated })
      .first()
      .waitFor();

    await menu(page).getByRole('link', { name: 'Leads' }).waitFor({ timeout: FOLLOWS_WITHIN_MS });
    expect(await sameDocument(page)).toBe(true);
    await screenshot(page, 'permissions-live-agent-gains-leads');
    await menu(page).getByRole('link', { name: 'Leads' }).click();
    await page.waitForURL('**/leads');
    expect(await page.getByText(MESSAGES.unauthorized.title).count()).toBe(0);
  });

  it("a teammate without the inbox gains a stronger role's menu moments after the owner assigns it", async () => {
    screenshotOnFailure(ownerPage, 'permissions-live-owner-assign');
    const member = person('milo');
    const { page } = await joinAsTeammate(h, ownerPage, 'Member', member);
    screenshotOnFailure(page, 'permissions-live-member');
    const before = await menuLabels(page);
    expect(before).not.toContain('Analytics');
    expect(before).not.toContain('Support Inbox');
    await markDocument(page);

    await ownerPage.goto('/roles');
    await ownerPage.getByRole('button', { name: `Assign a role to ${member.email}` }).click();
    const assign = ownerPage.getByRole('dialog', { name: 'Assign a role' });
    await assign.getByRole('combobox', { name: 'Role' }).click();
    await ownerPage.getByRole('option', { name: 'Viewer', exact: true }).click();
    await assign.getByRole('button', { name: 'Assign role' }).click();
    await ownerPage.getByRole('alert').filter({ hasText: MESSAGES.roles.roleAssigned }).first().waitFor();

    await menu(page).getByRole('link', { name: 'Analytics' }).waitFor({ timeout: FOLLOWS_WITHIN_MS });
    expect(await menuLabels(page)).toContain('Support Inbox');
    expect(await sameDocument(page)).toBe(true);
    await screenshot(page, 'permissions-live-member-gains-viewer');
  });
});
