// @vitest-environment jsdom
import { MESSAGES, type User } from '@parley/contracts';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../app/store';
import { BrowserRequest, json } from '../../../test/api-stubs';
import { PasswordForm } from './PasswordForm';

const USER = { id: 7, tenant_id: 1, first_name: 'Ada', last_name: 'L', email: 'a@example.com' } as User;
const RENEWED = { access_token: 'renewed-token', token_type: 'bearer', expires_in: 900, user: USER };

/** The API as the form meets it: the password answer given, and the refresh cookie renewing. */
function stubApi(password: Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(input), init);
      const path = new URL(request.url, location.href).pathname;
      calls.push(`${request.method} ${path}`);
      return path === '/api/auth/refresh' ? json(RENEWED) : password;
    }),
  );
  return calls;
}

function submit() {
  render(
    <Provider store={makeStore()}>
      <PasswordForm userId={7} />
    </Provider>,
  );
  fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'old password 1' } });
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'new password 12' } });
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'new password 12' } });
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('PasswordForm', () => {
  beforeEach(() => {
    vi.stubGlobal('Request', BrowserRequest);
    localStorage.setItem('accessToken', 'old-token');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('says the other devices were signed out, and renews this tab’s token through the new cookie', async () => {
    const calls = stubApi(json({ message: MESSAGES.users.passwordChanged }));
    submit();
    expect(await screen.findByText(MESSAGES.users.otherDevicesSignedOut)).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem('accessToken')).toBe('renewed-token'));
    expect(calls).toEqual(['PUT /api/auth/user/password/7', 'POST /api/auth/refresh']);
  });

  it('shows the server’s detail on a refused change and keeps the session as it was', async () => {
    const calls = stubApi(json({ detail: MESSAGES.auth.currentPasswordWrong }, 400));
    submit();
    expect(await screen.findByText(MESSAGES.auth.currentPasswordWrong)).toBeTruthy();
    expect(screen.queryByText(MESSAGES.users.otherDevicesSignedOut)).toBeNull();
    expect(calls).toEqual(['PUT /api/auth/user/password/7']);
    expect(localStorage.getItem('accessToken')).toBe('old-token');
  });
});
