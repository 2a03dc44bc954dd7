import { MESSAGES } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBotViaApi,
  fillSignup,
  type Harness,
  joinAsTeammate,
  logIn,
  logOut,
  type Person,
  person,
  screenshot,
  screenshotOnFailure,
  sendInvitation,
  signUp,
  startHarness,
} from './harness';

const ROLE = 'Support agent';

/** Side-menu labels as the user sees them. */
async function menuLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await nav.getByRole('link').first().waitFor();
  return (await nav.getByRole('link').allInnerTexts()).map((t) => t.trim());
}

async function createLimitedRole(page: Page): Promise<void> {
  await page.goto('/roles?tab=roles');
  await page.getByRole('button', { name: 'Create role' }).click();
  await page.getByLabel('Role name').fill(ROLE);
  await page.getByRole('dialog').getByRole('button', { name: 'Create role' }).click();
  await page.getByRole('alert').filter({ hasText: MESSAGES.roles.created }).first().waitFor();
  // The new role is selected: grant reading the inbox and the profile, nothing else.
  await page.getByRole('checkbox', { name: 'Read Inbox' }).check();
  await page.getByRole('checkbox', { name: 'Read Profile' }).check();
  await page.getByRole('button', { name: 'Save permissions' }).click();
  await page.getByRole('alert').filter({ hasText: MESSAGES.roles.permissionsUpdated }).first().waitFor();
  await screenshot(page, 'roles-permissions');
}

describe('users, roles and the menu that follows them', () => {
  let h: Harness;
  let owner: Person;
  let ownerPage: Page;
  beforeAll(async () => {
    h = await startHarness();
    owner = person('olga');
    ownerPage = (await h.newPage()).page;
    await signUp(ownerPage, owner);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('invites a teammate with a limited role; their menu and guards follow the role', async () => {
    screenshotOnFailure(ownerPage, 'invite-owner');
    await createLimitedRole(ownerPage);
    const teammate = person('tom');
    await ownerPage.goto('/roles');
    await sendInvitation(ownerPage, teammate.email, ROLE);

    const mail = await h.mail.waitFor(teammate.email, /invited you/);
    const link = /https?:\/\/\S+\/signup\?token=[\w-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();

    const { page } = await h.newPage();
    screenshotOnFailure(page, 'invite-teammate');
    await page.goto(link!);
    await page.getByRole('heading', { name: `Join ${owner.firstName}'s workspace` }).waitFor();
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(teammate.email);
    await screenshot(page, 'signup-invitation');
    await fillSignup(page, teammate, { emailPrefilled: true });
    await page.waitForURL('**/home');

    await logOut(page);
    await logIn(page, teammate.email, teammate.password);
    await page.waitForURL('**/home');
    const menu = await menuLabels(page);
    expect(menu).toContain('Support Inbox');
    expect(menu).toContain('Profile');
    expect(menu).not.toContain('Analytics');
    expect(menu).not.toContain('Users');

    await page.goto('/analytics');
    await page.getByText(MESSAGES.unauthorized.title).waitFor();
    await page.getByText(MESSAGES.unauthorized.body).waitFor();
    await page.getByText(MESSAGES.unauthorized.body).waitFor();
    expect(await page.getByRole('link', { name: MESSAGES.unauthorized.back }).getAttribute('href')).toBe('/');
    await screenshot(page, 'unauthorized');

    // The owner sees the teammate with the role.
    await ownerPage.goto('/roles');
    await ownerPage
      .getByTestId(`user-row-${teammate.email}`)
      .getByText(ROLE)
      .filter({ visible: true })
      .waitFor();
    await screenshot(ownerPage, 'roles-users');

    // A new teammate works with every bot, new ones included; the owner restricts them to one.
    await createBotViaApi(h, ownerPage, { bot_name: 'Front desk' });
    await createBotViaApi(h, ownerPage, { bot_name: 'Back office' });
    await ownerPage.reload();
    await ownerPage.getByRole('button', { name: `Assign bots to ${teammate.email}` }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Assign bots' });
    const every = dialog.getByLabel('Every bot, new ones included');
    await dialog.getByLabel('Back office').waitFor();
    expect(await every.isChecked()).toBe(true);
    expect(await dialog.getByLabel('Back office').isDisabled()).toBe(true);
    await screenshot(ownerPage, 'roles-assign-bots-every');
    await every.uncheck();
    await dialog.getByLabel('Back office').uncheck();
    await dialog.getByLabel('Front desk').check();
    await screenshot(ownerPage, 'roles-assign-bots-restricted');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await ownerPage.getByText('Bots assigned successfully').first().waitFor();
    await ownerPage.getByRole('button', { name: `Assign bots to ${teammate.email}` }).click();
    // Reopened, the dialog loads the teammate's bots again: checked once they arrive.
    await expect.poll(() => dialog.getByLabel('Front desk').isChecked(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => dialog.getByLabel('Every bot, new ones included').isChecked()).toBe(false);
    await expect.poll(() => dialog.getByLabel('Back office').isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('renames a role a teammate holds, refuses to delete it while they do, and deletes it once nobody does', async () => {
    screenshotOnFailure(ownerPage, 'roles-rename-delete');
    const shift = 'Night shift';
    await ownerPage.goto('/roles?tab=roles');
    await ownerPage.getByRole('button', { name: 'Create role' }).click();
    await ownerPage.getByLabel('Role name').fill(shift);
    await ownerPage.getByRole('dialog').getByRole('button', { name: 'Create role' }).click();
    await ownerPage.getByRole('alert').filter({ hasText: MESSAGES.roles.created }).first().waitFor();
    const teammate = person('nina');
    await joinAsTeammate(h, ownerPage, shift, teammate);

    // Renamed with a description: the teammate keeps it under its new name.
    await ownerPage.goto('/roles?tab=roles');
    await ownerPage.getByRole('combobox', { name: 'Role' }).click();
    await ownerPage.getByRole('option', { name: shift }).click();
    await ownerPage.getByRole('button', { name: 'Edit role' }).click();
    const edit = ownerPage.getByRole('dialog', { name: 'Edit role' });
    await edit.getByLabel('Role name').fill('Night desk');
    await edit.getByLabel('Description').fill('Answers the inbox overnight');
    await edit.getByRole('button', { name: 'Save role' }).click();
    await ownerPage.getByRole('alert').filter({ hasText: MESSAGES.roles.updated }).first().waitFor();
    await ownerPage.getByText('Answers the inbox overnight').waitFor();
    await ownerPage.goto('/roles');
    const row = ownerPage.getByTestId(`user-row-${teammate.email}`);
    await row.getByText('Night desk').filter({ visible: true }).waitFor();

    // Held by the teammate: refused, with what to do, in the dialog.
    await ownerPage.goto('/roles?tab=roles');
    await ownerPage.getByRole('combobox', { name: 'Role' }).click();
    await ownerPage.getByRole('option', { name: 'Night desk' }).click();
    await ownerPage.getByRole('button', { name: 'Delete role' }).click();
    const remove = ownerPage.getByRole('dialog', { name: 'Delete role' });
    await remove.getByRole('button', { name: 'Delete role' }).click();
    await remove.getByText(MESSAGES.roles.inUse(1, 0)).waitFor();
    await screenshot(ownerPage, 'roles-delete-in-use');
    await remove.getByRole('button', { name: 'Cancel' }).click();

    // The teammate moves to Member; then the role goes.
    await ownerPage.goto('/roles');
    await ownerPage.getByRole('button', { name: `Assign a role to ${teammate.email}` }).click();
    const assign = ownerPage.getByRole('dialog', { name: 'Assign a role' });
    await assign.getByRole('combobox', { name: 'Role' }).click();
    await ownerPage.getByRole('option', { name: 'Member', exact: true }).click();
    await assign.getByRole('button', { name: 'Assign role' }).click();
    await ownerPage.getByRole('alert').filter({ hasText: MESSAGES.roles.roleAssigned }).first().waitFor();
    await ownerPage.goto('/roles?tab=roles');
    await ownerPage.getByRole('combobox', { name: 'Role' }).click();
    await ownerPage.getByRole('option', { name: 'Night desk' }).click();
    await ownerPage.getByRole('button', { name: 'Delete role' }).click();
    await ownerPage
      .getByRole('dialog', { name: 'Delete role' })
      .getByRole('button', { name: 'Delete role' })
      .click();
    await ownerPage.getByRole('alert').filter({ hasText: MESSAGES.roles.deleted }).first().waitFor();
    await ownerPage.getByRole('combobox', { name: 'Role' }).click();
    await ownerPage.getByRole('option', { name: 'Member', exact: true }).waitFor();
    expect(await ownerPage.getByRole('option', { name: 'Night desk' }).count()).toBe(0);
    await ownerPage.keyboard.press('Escape');
    // The Owner role offers neither.
    await ownerPage.getByRole('combobox', { name: 'Role' }).click();
    await ownerPage.getByRole('option', { name: 'Owner (owner)' }).click();
    expect(await ownerPage.getByRole('button', { name: 'Delete role' }).count()).toBe(0);
    expect(await ownerPage.getByRole('button', { name: 'Edit role' }).count()).toBe(0);
  });

  it('creates, refuses to delete while assigned, and archives a feature', async () => {
    screenshotOnFailure(ownerPage, 'features');
    await ownerPage.goto('/roles?tab=features');
    await ownerPage.getByRole('button', { name: 'Create feature' }).click();
    await ownerPage.getByLabel('Feature name').fill('Reports');
    await ownerPage.getByRole('dialog').getByRole('button', { name: 'Create feature' }).click();
    await ownerPage.getByTestId('feature-row-Reports').waitFor();

    await ownerPage.goto('/roles?tab=roles');
    await ownerPage.getByRole('combobox', { name: 'Role' }).click();
    await ownerPage.getByRole('option', { name: ROLE }).click();
    await ownerPage.getByRole('checkbox', { name: 'Read Reports' }).check();
    await ownerPage.getByRole('button', { name: 'Save permissions' }).click();
    await ownerPage
      .getByRole('alert')
      .filter({ hasText: MESSAGES.roles.permissionsUpdated })
      .first()
      .waitFor();

    await ownerPage.goto('/roles?tab=features');
    await ownerPage.getByRole('button', { name: 'Delete Reports' }).click();
    await ownerPage.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await ownerPage
      .getByRole('alert')
      .filter({ hasText: MESSAGES.features.deleteAssigned })
      .first()
      .waitFor();

    await ownerPage.getByRole('button', { name: 'Archive Reports' }).click();
    await ownerPage.getByTestId('feature-row-Reports').getByText('Archived').waitFor();
    await screenshot(ownerPage, 'roles-features');
  });
});
