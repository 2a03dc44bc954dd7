import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';

/**
 * Crawler include and exclude patterns. A pattern is matched against a page's path and query
 * (`/blog/post?id=1`) and matches when it matches any part of it.
 *
 * - Written between slashes (`/^\/docs\/v\d+$/`), it is a regular expression in RE2 syntax: no
 *   look-around, no back-references; `^` and `$` anchor it.
 * - Anything else is a glob: `*` any run of characters (slashes included), `?` one character,
 *   every other character itself (`/blog/*`, `*.pdf`, `/about`).
 *
 * Both are compiled for RE2JS, whose matching time grows linearly with the URL: a user's pattern
 * cannot stall the process the way a backtracking engine can (JavaScript's RegExp takes seconds for
 * `^\/(a+)+$` against 30 `a`s and a `!`; picomatch's globs compile to such RegExps too).
 */
export type UrlPattern = { pattern: string; test(target: string): boolean };

/** A pattern that RE2 cannot compile; its message names the pattern and says why. */
export class InvalidPatternError extends Error {}

const isRegex = (pattern: string) => pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/');

const globToRegex = (glob: string) =>
  glob
    .split(/([*?])/)
    .map((part) => (part === '*' ? '.*' : part === '?' ? '.' : part ? RE2JS.quote(part) : ''))
    .join('');

export function compilePattern(pattern: string): UrlPattern {
  const source = isRegex(pattern) ? pattern.slice(1, -1) : globToRegex(pattern);
  try {
    const compiled = RE2JS.compile(source);
    return { pattern, test: (target) => compiled.test(target) };
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    const reason = error instanceof RE2JSSyntaxException ? error.getDescription() : error.message;
    throw new InvalidPatternError(
      `The pattern "${pattern}" is not a valid regular expression (${reason}): patterns use RE2 syntax, without look-around or back-references`,
    );
  }
}
