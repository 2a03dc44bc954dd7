import { expect, it } from 'vitest';
import { computeHeaders } from './security-headers.js';

it('adds HSTS and upgrade-insecure-requests only over https', () => {
  const https = computeHeaders({ https: true });
  expect(https['strict-transport-security']).toMatch(/max-age=\d+/);
  expect(https['content-security-policy']).toContain('upgrade-insecure-requests');
  const http = computeHeaders({ https: false });
  expect(http['strict-transport-security']).toBeUndefined();
  expect(http['content-security-policy']).not.toContain('upgrade-insecure-requests');
  for (const headers of [http, https]) {
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  }
});

it('allows Google sign-in only when it is configured', () => {
  expect(computeHeaders({ https: true })['content-security-policy']).not.toContain('accounts.google.com');
  const csp = computeHeaders({ https: true, googleSignIn: true })['content-security-policy'];
  expect(csp).toContain("script-src 'self' https://accounts.google.com/gsi/client");
  expect(csp).toContain('frame-src https://accounts.google.com/gsi/');
});
