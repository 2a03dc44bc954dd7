// @vitest-environment jsdom
import { createMongoAbility } from '@casl/ability';
import type { AppAbility } from '@parley/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AbilityContext } from '../../permissions/ability';
import { QuickActions } from './QuickActions';

function titlesFor(rules: { action: string; subject: string }[]): string[] {
  render(
    <MemoryRouter>
      <AbilityContext.Provider value={createMongoAbility<AppAbility>(rules as never)}>
        <QuickActions />
      </AbilityContext.Provider>
    </MemoryRouter>,
  );
  return screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent ?? '');
}

afterEach(cleanup);

describe('quick actions', () => {
  it('offers to create a bot only to those who may, and their bots to those who only read them', () => {
    const home = { action: 'read', subject: 'Home' };
    expect(
      titlesFor([
        home,
        { action: 'read', subject: 'Create Bot' },
        { action: 'create', subject: 'Create Bot' },
      ]),
    ).toEqual(['Create a bot', 'Personalise the console']);
    cleanup();
    expect(titlesFor([home, { action: 'read', subject: 'Create Bot' }])).toEqual([
      'See your bots',
      'Personalise the console',
    ]);
  });
});
