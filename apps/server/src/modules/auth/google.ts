import { MESSAGES } from '@parley/contracts';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { AppError } from '../../core/errors.js';

export type GoogleIdentity = { subject: string; email: string; firstName: string; lastName: string };

const ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** Checks a Google ID token against Google's published keys (URL configurable for tests) and our client id. */
export class GoogleVerifier {
  private readonly jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(
    private readonly clientId: string | undefined,
    jwksUrl: string,
  ) {
    this.jwks = clientId ? createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000 }) : undefined;
  }

  async verify(idToken: string): Promise<GoogleIdentity> {
    if (!this.jwks || !this.clientId) throw new AppError('bad_request', MESSAGES.auth.googleNotConfigured);
    try {
      const { payload } = await jwtVerify(idToken, this.jwks, {
        issuer: ISSUERS,
        audience: this.clientId,
        algorithms: ['RS256'],
      });
      const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : '';
      if (!payload.sub || !email || payload.email_verified !== true)
        throw new errors.JWTClaimValidationFailed('email', payload);
      const given =
        typeof payload.given_name === 'string' ? payload.given_name : (email.split('@')[0] ?? 'Google');
      const family = typeof payload.family_name === 'string' ? payload.family_name : '';
      return { subject: payload.sub, email, firstName: given, lastName: family };
    } catch (error) {
      if (error instanceof errors.JOSEError)
        throw new AppError('unauthorized', MESSAGES.auth.googleTokenInvalid);
      throw error;
    }
  }
}
