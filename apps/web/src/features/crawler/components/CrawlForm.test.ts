import { describe, expect, it } from 'vitest';
import { withScheme } from './CrawlForm';

describe('withScheme', () => {
  it('puts https:// before a site typed as people say it', () => {
    expect(withScheme('oldforge.co.uk')).toBe('https://oldforge.co.uk');
    expect(withScheme(' www.oldforge.co.uk/menu ')).toBe('https://www.oldforge.co.uk/menu');
    expect(withScheme('localhost:3000')).toBe('localhost:3000');
  });

  it('leaves an address with a scheme, or no address at all, as it is', () => {
    expect(withScheme('http://oldforge.co.uk')).toBe('http://oldforge.co.uk');
    expect(withScheme('ftp://files.example.com')).toBe('ftp://files.example.com');
    expect(withScheme('not a site')).toBe('not a site');
    expect(withScheme('')).toBe('');
  });
});
