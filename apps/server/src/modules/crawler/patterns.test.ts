import { describe, expect, it } from 'vitest';
import { compilePattern } from './patterns.js';

describe('compilePattern', () => {
  it('reads globs: * any run (slashes included), ? one character, the rest literally, anywhere in the path', () => {
    const blog = compilePattern('/blog/*');
    expect(blog.test('/blog/post-1')).toBe(true);
    expect(blog.test('/blog/2024/post?id=1')).toBe(true);
    expect(blog.test('/en/blog/post')).toBe(true);
    expect(blog.test('/news/1')).toBe(false);
    expect(compilePattern('/item-?').test('/item-7')).toBe(true);
    expect(compilePattern('*.html').test('/a.html')).toBe(true);
    expect(compilePattern('*.html').test('/ahtml')).toBe(false);
    expect(compilePattern('/about').test('/about-us')).toBe(true);
    // characters that mean something to a regular expression are plain text in a glob
    expect(compilePattern('/c++/(old)').test('/c++/(old)')).toBe(true);
    expect(compilePattern('/c++/(old)').test('/cc/old')).toBe(false);
    expect(compilePattern('/a\\E.*').test('/a\\E.x')).toBe(true);
    expect(compilePattern('/a\\E.*').test('/a\\Ezx')).toBe(false);
  });

  it('reads /regex/ patterns in RE2 syntax', () => {
    expect(compilePattern('/^\\/docs\\/v\\d+$/').test('/docs/v2')).toBe(true);
    expect(compilePattern('/^\\/docs\\/v\\d+$/').test('/docs/v2/x')).toBe(false);
    expect(compilePattern('/^\\/(new|changing)$/').test('/changing')).toBe(true);
  });

  it('matches in linear time: a pattern that backtracks for seconds in RegExp answers at once', () => {
    // RegExp needs 2^30 steps here (about 10 s); the test's 2 s limit only catches such a stall.
    const nested = compilePattern('/^\\/(a+)+$/');
    expect(nested.test(`/${'a'.repeat(30)}!`)).toBe(false);
    expect(nested.test(`/${'a'.repeat(30)}`)).toBe(true);
  }, 2_000);

  it('refuses what RE2 cannot read, naming the pattern and the reason', () => {
    expect(() => compilePattern('/([/')).toThrow(
      /^The pattern "\/\(\[\/" is not a valid regular expression \(missing closing \]\)/,
    );
    expect(() => compilePattern('/(a)\\1/')).toThrow(/"\/\(a\)\\1\/" is not a valid regular expression/);
    expect(() => compilePattern('/^(?!\\/admin)/')).toThrow(/without look-around or back-references/);
    expect(() => compilePattern('/a{1001}/')).toThrow(/invalid repeat count/);
  });
});
