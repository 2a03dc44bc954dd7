import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

/** A JWKS endpoint on loopback like Google's, and a signer for ID tokens it vouches for. */
export type JwksFake = {
  url: string;
  signIdToken(
    claims: JWTPayload & { email?: string; email_verified?: boolean },
    options?: { audience?: string; issuer?: string },
  ): Promise<string>;
  close(): Promise<void>;
};

export async function startJwksFake(clientId: string): Promise<JwksFake> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    signIdToken: (claims, options = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(options.issuer ?? 'https://accounts.google.com')
        .setAudience(options.audience ?? clientId)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
