import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ACCESS,
  decideEntry,
  extractPlanParams,
  isIntegrationsPath,
  isLoginOrSignupPath,
  isSafeReturnUrl,
  postLoginTarget,
} from './startup-rules';

describe('extractPlanParams', () => {
  it('stores id and plan and removes them from the URL', () => {
    expect(extractPlanParams('?id=3&plan=monthly&ref=x')).toEqual({
      stored: { planId: '3', planFrequency: 'monthly' },
      search: '?ref=x',
    });
  });

  it('stores addOnId with plan and quant', () => {
    expect(extractPlanParams('?addOnId=7&plan=yearly&quant=2')).toEqual({
      stored: { addOnId: '7', addOnPlan: 'yearly', addOnQuant: '2' },
      search: '',
    });
  });

  it('does nothing without id or addOnId', () => {
    expect(extractPlanParams('?plan=monthly')).toBeNull();
    expect(extractPlanParams('')).toBeNull();
  });
});

describe('decideEntry', () => {
  const privatePage = { access: DEFAULT_ACCESS, signedIn: false };

  it('sends a visitor without a session to /login with a returnUrl and storage cleared', () => {
    expect(decideEntry({ ...privatePage, pathname: '/roles', search: '?tab=features' })).toEqual({
      kind: 'redirect',
      to: '/login?returnUrl=%2Froles%3Ftab%3Dfeatures',
      clearStorage: true,
    });
  });

  it('gives no returnUrl at the root', () => {
    expect(decideEntry({ ...privatePage, pathname: '/', search: '' })).toMatchObject({ to: '/login' });
  });

  it('stores integrations paths, the Shopify callback included, to return to after login', () => {
    const search = '?code=abc&shop=x.myshopify.com';
    expect(decideEntry({ ...privatePage, pathname: '/integrations/shopify/callback', search })).toMatchObject(
      {
        kind: 'redirect',
        clearStorage: true,
        storeRedirect: `/integrations/shopify/callback${search}`,
      },
    );
    expect(decideEntry({ ...privatePage, pathname: '/home', search: '' })).not.toHaveProperty(
      'storeRedirect',
    );
  });

  it('lets a signed-in user through private pages (permissions are checked by the shell)', () => {
    expect(
      decideEntry({ access: { menu: '/analytics' }, signedIn: true, pathname: '/analytics', search: '' }),
    ).toEqual({
      kind: 'allow',
    });
  });

  it('sends a stored user on a guest-only page to /', () => {
    expect(decideEntry({ access: 'guest', signedIn: true, pathname: '/login', search: '' })).toEqual({
      kind: 'redirect',
      to: '/',
      clearStorage: false,
    });
  });

  it('does not redirect when a token query parameter is present', () => {
    expect(
      decideEntry({ access: 'guest', signedIn: true, pathname: '/signup', search: '?token=abcdefghijk' }),
    ).toEqual({
      kind: 'allow',
    });
  });

  it('right after login goes to the stored redirect, else the returnUrl, else /home', () => {
    const base = { access: 'guest' as const, signedIn: true, justSignedIn: true, pathname: '/login' };
    expect(
      decideEntry({ ...base, search: '?returnUrl=%2Froles', storedRedirect: '/integrations/x' }),
    ).toMatchObject({
      to: '/integrations/x',
    });
    expect(decideEntry({ ...base, search: '?returnUrl=%2Froles' })).toMatchObject({ to: '/roles' });
    expect(decideEntry({ ...base, search: '' })).toMatchObject({ to: '/home' });
    // An accepted invitation leaves /signup?token=... too.
    expect(decideEntry({ ...base, pathname: '/signup', search: '?token=abcdefghijk' })).toMatchObject({
      to: '/home',
    });
  });

  it('never redirects public pages', () => {
    for (const signedIn of [true, false]) {
      expect(decideEntry({ access: 'public', signedIn, pathname: '/partner', search: '' })).toEqual({
        kind: 'allow',
      });
    }
  });
});

describe('postLoginTarget', () => {
  it('prefers the stored redirect, then the returnUrl unless it is the root, then /home', () => {
    expect(
      postLoginTarget({ storedRedirect: '/integrations/shopify/callback?code=1', returnUrl: '/roles' }),
    ).toBe('/integrations/shopify/callback?code=1');
    expect(postLoginTarget({ storedRedirect: null, returnUrl: '/roles' })).toBe('/roles');
    expect(postLoginTarget({ storedRedirect: null, returnUrl: '/' })).toBe('/home');
    expect(postLoginTarget({ storedRedirect: null, returnUrl: null })).toBe('/home');
  });

  it('ignores addresses that would leave the app', () => {
    expect(postLoginTarget({ storedRedirect: null, returnUrl: '//evil.example' })).toBe('/home');
    expect(postLoginTarget({ storedRedirect: 'https://evil.example', returnUrl: null })).toBe('/home');
  });
});

describe('path helpers', () => {
  it('recognises login and signup pages', () => {
    expect(isLoginOrSignupPath('/login')).toBe(true);
    expect(isLoginOrSignupPath('/signup/')).toBe(true);
    expect(isLoginOrSignupPath('/register')).toBe(true);
    expect(isLoginOrSignupPath('/home')).toBe(false);
  });

  it('recognises integrations pages', () => {
    expect(isIntegrationsPath('/integrations/shopify/callback')).toBe(true);
    expect(isIntegrationsPath('/integrations')).toBe(true);
    expect(isIntegrationsPath('/integrationsx')).toBe(false);
  });

  it('accepts only in-app return URLs, never the login pages themselves', () => {
    expect(isSafeReturnUrl('/roles?tab=features')).toBe(true);
    expect(isSafeReturnUrl('/login?returnUrl=/x')).toBe(false);
    expect(isSafeReturnUrl('/\\evil')).toBe(false);
    expect(isSafeReturnUrl(undefined)).toBe(false);
  });
});
