import { readableOn } from '@parley/chat-client';
import { BOT } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { palette } from './colour';
import { imageHosts, mountedOn, readConfig } from './config';
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

  it('reads at WCAG AA (4.5:1) for any brand colour: text on the brand, and the accent on white', () => {
    const luminance = (hex: string) => {
      const value = Number.parseInt(hex.slice(1), 16);
      const channel = (shift: number) => {
        const c = ((value >> shift) & 0xff) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
    };
    const contrast = (a: string, b: string) => {
      const [dark, light] = [luminance(a), luminance(b)].sort((x, y) => x - y) as [number, number];
      return (light + 0.05) / (dark + 0.05);
    };
    let worst = 21;
    for (let value = 0; value <= 0xffffff; value += 0x050709) {
      const { brand, onBrand, accent } = palette(`#${value.toString(16).padStart(6, '0')}`);
      worst = Math.min(worst, contrast(onBrand, brand), contrast(accent, '#ffffff'));
    }
    expect(worst).toBeGreaterThanOrEqual(4.5);
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

describe('mountedOn', () => {
  it('is one list per page, whichever copy of the script asks', () => {
    const page = {};
    const first = mountedOn(page);
    first.set(UUID, { setOpen: null });
    // A second copy of widget.js (the snippet pasted twice) finds the first's widget.
    expect(mountedOn(page).has(UUID)).toBe(true);
    expect(mountedOn({}).has(UUID)).toBe(false);
  });
});
