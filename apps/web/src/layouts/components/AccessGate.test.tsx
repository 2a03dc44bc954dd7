// @vitest-environment jsdom
import { type AbilityUser, MESSAGES } from '@parley/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AbilityContext, abilityFor } from '../../features/permissions/ability';
import { AccessGate } from './AccessGate';

const limitedUser: AbilityUser = {
  user_type: 'user',
  roles: [
    {
      is_owner: false,
      feature_permissions: [
        {
          can_create: false,
          can_read: true,
          can_write: false,
          feature_permission: { name: 'Inbox', is_archived: false },
        },
      ],
    },
  ],
};

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: <AccessGate />,
        children: [
          { path: 'analytics', handle: { access: { menu: '/analytics' } }, element: <p>analytics page</p> },
          { path: 'inbox', handle: { access: { menu: '/inbox' } }, element: <p>inbox page</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <AbilityContext.Provider value={abilityFor(limitedUser as never)}>
      <RouterProvider router={router} />
    </AbilityContext.Provider>,
  );
}

describe('AccessGate', () => {
  afterEach(cleanup);

  it('shows the unauthorised page, with its three texts and Back to Home, for a missing permission', async () => {
    renderAt('/analytics');
    expect(await screen.findByText(MESSAGES.unauthorized.title)).toBeTruthy();
    expect(screen.getByText(MESSAGES.unauthorized.body)).toBeTruthy();
    expect(screen.getByText(MESSAGES.unauthorized.body)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    expect(screen.queryByText('analytics page')).toBeNull();
  });

  it('shows the page when the role grants it', async () => {
    renderAt('/inbox');
    expect(await screen.findByText('inbox page')).toBeTruthy();
  });
});
