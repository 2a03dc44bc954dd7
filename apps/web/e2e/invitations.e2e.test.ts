import { MESSAGES } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Harness,
  joinAsTeammate,
  type Person,
  person,
  screenshot,
  screenshotOnFailure,
  sendInvitation,
  signUp,
  startHarness,
} from './harness';

const INVITED = /invited you/;

const linkIn = (text: string) => /https?:\/\/\S+\/signup\?token=[\w-]+/.exec(text)?.[0];

describe('pending invitations on the users screen', () => {
  let h: Harness;
  let owner: Person;
  let page: Page;
  beforeAll(async () => {
    h = await startHarness();
    owner = person('ines');
    page = (await h.newPage()).page;
    await signUp(page, owner);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lists an invitation once sent, resends it with a new link, and revokes it', async () => {
    screenshotOnFailure(page, 'invitations');
    const invitee = person('ivy');
    await page.goto('/roles');
    await page.getByText('No invitations are waiting for an answer.').waitFor();
    await sendInvitation(page, invitee.email, 'Member');

    const row = page.getByTestId(`invitation-row-${invitee.email}`);
    await row.getByText('Member').waitFor();
    await row.getByText(`${owner.firstName} ${owner.lastName}`).filter({ visible: true }).waitFor();
    await screenshot(page, 'invitations-pending');
    const first = linkIn((await h.mail.waitFor(invitee.email, INVITED)).text);
    // The list shows the link the mail carries, to copy.
    expect(await row.getByTestId('invitation-link').textContent()).toBe(first);

    await row.getByRole('button', { name: `Resend the invitation to ${invitee.email}` }).click();
    await page.getByRole('alert').filter({ hasText: MESSAGES.users.inviteResent }).first().waitFor();
    const deadline = Date.now() + 20_000;
    let second = first;
    while (second === first && Date.now() < deadline) {
      second = linkIn((await h.mail.waitFor(invitee.email, INVITED)).text);
      if (second === first) await new Promise((r) => setTimeout(r, 100));
    }
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    await expect.poll(() => row.getByTestId('invitation-link').textContent()).toBe(second);

    // The first link no longer opens an invitation.
    const { page: visitor } = await h.newPage();
    await visitor.goto(first!);
    await visitor.getByText(MESSAGES.auth.invitationInvalid).waitFor();

    await row.getByRole('button', { name: `Revoke the invitation to ${invitee.email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke invitation' });
    await dialog.getByText(invitee.email).waitFor();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('alert').filter({ hasText: MESSAGES.users.inviteRevoked }).first().waitFor();
    await row.waitFor({ state: 'detached' });
    await page.getByText('No invitations are waiting for an answer.').waitFor();

    await visitor.goto(second!);
    await visitor.getByText(MESSAGES.auth.invitationInvalid).waitFor();
  });

  it('withdraws the invitations of a teammate who is removed, and says so', async () => {
    screenshotOnFailure(page, 'invitations-inviter-removed');
    const manager = person('mona');
    const { page: managerPage } = await joinAsTeammate(h, page, 'Admin', manager);
    const friend = person('fred');
    await managerPage.goto('/roles');
    await sendInvitation(managerPage, friend.email, 'Agent');
    const link = linkIn((await h.mail.waitFor(friend.email, INVITED)).text);

    await page.goto('/roles');
    const row = page.getByTestId(`invitation-row-${friend.email}`);
    await row.getByText(`${manager.firstName} ${manager.lastName}`).filter({ visible: true }).waitFor();
    await page.getByRole('button', { name: `Delete ${manager.email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete user' });
    await dialog.getByText(/invitations they sent that nobody has accepted are withdrawn/).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const said = `${MESSAGES.users.deleted}. ${MESSAGES.users.invitationsWithdrawn(1)}`;
    await page.getByRole('alert').filter({ hasText: said }).first().waitFor();
    await screenshot(page, 'invitations-inviter-removed');
    await row.waitFor({ state: 'detached' });

    // The friend's link no longer signs anyone up.
    const { page: visitor } = await h.newPage();
    await visitor.goto(link!);
    await visitor.getByText(MESSAGES.auth.invitationInvalid).waitFor();
  });
});
