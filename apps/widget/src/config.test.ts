import { readableOn } from '@parley/chat-client';
import { BOT } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { palette } from './colour';
import { imageHosts, readConfig } from './config';
import { botStore, storageKey } from './storage';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const tag = (src: string, attributes: Record<string, string>) => ({
  src,
  getAttribute: (name: string) => attributes[name] ?? null,
});

describe('readConfig', () => {
  it('takes the API host from the script address and the bot from data-bot', () => {
    expect(
      readConfig(tag('https://parley.example/widget.js?v=2', { 'data-bot': UUID }), 'https://shop.example/'),
    ).toEqual({
      apiBase: 'https://parley.example',
      uuid: UUID,
      openAtStart: false,
    });
    expect(
      readConfig(
        tag('/widget.js', { 'data-bot': UUID.toUpperCase(), 'data-open': 'true' }),
        'http://localhost:3000/a',
      ),
    ).toEqual({ apiBase: 'http://localhost:3000', uuid: UUID, openAtStart: true });
  });

  it('says what is wrong with an unusable tag', () => {
    expect(readConfig(null, 'https://shop.example/')).toMatch(/not found/);
    expect(
      readConfig(tag('https://parley.example/widget.js', { 'data-bot': '12' }), 'https://shop.example/'),
    ).toMatch(/uuid/);
  });

  it('allows images from the API host', () => {
    expect(imageHosts('http://127.0.0.1:4000')).toEqual(['127.0.0.1:4000']);
  });
});

describe('palette', () => {
  it('puts readable text on the brand colour and keeps light brands out of text on white', () => {
    expect(readableOn('#1a56db')).toBe('#ffffff');
    expect(readableOn('#ffffff')).toBe('#000000');
    expect(palette('#1a56db')).toEqual({ brand: '#1a56db', onBrand: '#ffffff', accent: '#1a56db' });
    expect(palette('#ffee00').accent).toBe('#1f2937');
    expect(palette('not a colour').brand).toBe(BOT.defaultBrandColor);
  });
});

describe('botStore', () => {
  it('keeps keys under the parley: prefix, per bot, and survives blocked storage', () => {
    const local = new Map<string, string>();
    const session = new Map<string, string>();
    const fake = (map: Map<string, string>) =>
      ({
        getItem: (k: string) => map.get(k) ?? null,
        setItem: (k: string, v: string) => map.set(k, v),
        removeItem: (k: string) => map.delete(k),
      }) as unknown as Storage;
    const store = botStore(UUID, { local: () => fake(local), session: () => fake(session) });
    store.set('conversation', '7');
    store.set('open', 'true');
    expect([...local.keys()]).toEqual([storageKey(UUID, 'conversation')]);
    expect([...session.keys()]).toEqual([`parley:${UUID}:open`]);
    expect(store.get('conversation')).toBe('7');

    const blocked = botStore(UUID, {
      local: () => {
        throw new Error('SecurityError');
      },
      session: () => {
        throw new Error('SecurityError');
      },
    });
    expect(() => blocked.set('visitor', 'x')).not.toThrow();
    expect(blocked.get('visitor')).toBeNull();
  });
});
