import { currentRelease, previousRelease, type Release } from './eval-release.js';

/**
 * The command line the evaluations share (npm run eval:retrieval, npm run eval:answers): the
 * databases to run on and the releases to compare.
 *
 * - PGlite always; PostgreSQL too with EVAL_DATABASE_URL, or --pg for DEFAULT_PG.
 * - This release, after the previous one (--previous=<commit>, or the evaluation's default);
 *   --no-previous runs this release only.
 */
export const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

export type EvalOptions = {
  /** The PostgreSQL server to run on besides PGlite, or null. */
  pgUrl: string | null;
  /** What freshDatabase() is given for each database, in order: null for PGlite, then the server. */
  databases: Array<string | null>;
  /** The releases in the order they run: the previous one (if any), then this one. */
  releases: Release[];
  /** The value of --name=value, if given. */
  option(name: string): string | undefined;
  /** Whether --name was given. */
  flag(name: string): boolean;
};

export function evalOptions(args: string[], defaultPrevious: string): EvalOptions {
  const option = (name: string) => {
    const arg = args.find((a) => a.startsWith(`--${name}=`));
    return arg?.slice(name.length + 3);
  };
  const flag = (name: string) => args.includes(`--${name}`);
  const pgUrl = process.env.EVAL_DATABASE_URL || (flag('pg') ? DEFAULT_PG : null);
  const releases = flag('no-previous')
    ? [currentRelease()]
    : [previousRelease(option('previous') ?? defaultPrevious), currentRelease()];
  return { pgUrl, databases: pgUrl ? [null, pgUrl] : [null], releases, option, flag };
}
