import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const base = { APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/parley-config-test' };

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({
      PORT: 3000,
      ACCESS_TOKEN_TTL_SECONDS: 900,
      publicUrl: 'http://localhost:3000',
      cookieSecure: false,
      // A fresh install is not a Free-plan trial: the operator turns plans on.
      PLAN_LIMITS: 'off',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ACCESS_TOKEN_TTL_SECONDS: '3600' }, 'ACCESS_TOKEN_TTL_SECONDS'],
    [{ APP_SECRET: 'short' }, 'APP_SECRET'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('stops with a message naming the bad variable (%#)', (env, name) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it('requires APP_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: base.DATA_DIR })).toThrow(/APP_SECRET/);
  });

  it('marks cookies secure behind https and splits CORS origins', () => {
    const config = loadConfig({
      ...base,
      PUBLIC_URL: 'https://parley.example.com/',
      CORS_ORIGINS: 'https://a.com, https://b.com',
    });
    expect(config.cookieSecure).toBe(true);
    expect(config.publicUrl).toBe('https://parley.example.com');
    expect(config.corsOrigins).toEqual(['https://a.com', 'https://b.com']);
  });
});
