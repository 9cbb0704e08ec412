// The site's attempt limits (docs/decisions/015 has the numbers and their arithmetic). Every
// count lives in the site's database, where every instance sees it and where it outlives a
// restart of anything else: one atomic upsert per attempt, so parallel attempts all count.
// Redis, when REDIS_URL is set, is an accelerator and never the memory: it remembers only that
// a key is over its limit until its window ends, so a refused client is refused again without
// a database write. Redis down, or back empty, loses nothing but that shortcut.
import type { Redis } from 'ioredis';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { ApiError, type ErrorCode } from '../errors';
import { KyselyRateLimiter } from './kysely-store';

export interface LimitNumbers {
  /** Requests one client IP may make per window to the routes anyone can use blind (a
   *  registration code for any address, the password-less code, the contact form as a visitor,
   *  the back office's login); never a member's own credential flow (docs/decisions/015). */
  ipRequests: number;
  ipWindowSeconds: number;
  /** Wrong passwords in a row for one address from one requesting network before that network
   *  is refused for that address (the member's own network never pays for a stranger's). */
  passwordFailures: number;
  passwordWindowSeconds: number;
  /** Address-wide wrong passwords per window after which every further password check for the
   *  address is slowed down (never refused) and the member is told once a day by mail. */
  passwordSlowAfter: number;
  /** The slow-down: the first delay, doubled with each further wrong password, never above the
   *  ceiling. */
  slowStepMs: number;
  slowMaxMs: number;
  /** Wrong passwords for one operator over every network per window: past it, only networks the
   *  operator has logged in from are heard (the office cannot be locked out by strangers). */
  operatorPasswordCap: number;
  /** Requests with a session to routes that change or mail, per operator (or member on the
   *  contact form) and hour: sized for a clerk's busiest hour, several times over. */
  operatorRequestsPerHour: number;
  /** Wrong codes one address may take per purpose and window, over all its flows. */
  codeFailures: number;
  codeWindowSeconds: number;
  /** Code and link mails one requesting network (IPv4 /24, IPv6 /64) may cause per hour. */
  mailsPerNetworkHour: number;
  /** Password-less code mails (the earliest login) one address may receive per Japan day. */
  earliestLoginMailsPerDay: number;
  /** Password-less code requests one requesting network may make per hour. */
  earliestLoginPerNetworkHour: number;
  /** Unrequested notices one address receives per kind and Japan day (attempts to register it,
   *  to change to it, to log in to it with wrong passwords): each kind at most one mail a day,
   *  naming how many attempts there were. Fixed at one; here for the arithmetic. */
  attemptNoticesPerKindPerDay: number;
  /** How long after the first attempt of the day its notice goes out, counting those since. */
  attemptNoticeDelaySeconds: number;
  /** Wrong password-reset identities per address and requesting network per hour. */
  identityFailuresPerHour: number;
  /** Contact acknowledgements one address (canonical) receives per day in Japan; inquiries
   *  beyond it are stored and answered alike, without the mail. */
  acknowledgementsPerDay: number;
}

export const DEFAULT_LIMITS: LimitNumbers = {
  ipRequests: 100,
  ipWindowSeconds: 15 * 60,
  passwordFailures: 100,
  passwordWindowSeconds: 24 * 3600,
  passwordSlowAfter: 10,
  slowStepMs: 250,
  slowMaxMs: 4000,
  operatorPasswordCap: 100,
  operatorRequestsPerHour: 2000,
  codeFailures: 20,
  codeWindowSeconds: 24 * 3600,
  mailsPerNetworkHour: 60,
  earliestLoginMailsPerDay: 4,
  earliestLoginPerNetworkHour: 10,
  attemptNoticesPerKindPerDay: 1,
  attemptNoticeDelaySeconds: 600,
  identityFailuresPerHour: 10,
  acknowledgementsPerDay: 3,
};

/** What each counter counts, and how it answers when a key goes over. */
export interface LimitShape {
  points: number;
  /** Window length in seconds (fixed windows, starting at a key's first hit). */
  duration: number;
  refusal: ErrorCode;
}

export function limitShapes(numbers: LimitNumbers, codesPerHour: number) {
  return {
    ip: { points: numbers.ipRequests, duration: numbers.ipWindowSeconds, refusal: 'TOO_MANY_ATTEMPTS' },
    /** Wrong passwords per (address, requesting network), or per trusted device. */
    password: { points: numbers.passwordFailures, duration: numbers.passwordWindowSeconds, refusal: 'TOO_MANY_ATTEMPTS' },
    /** Wrong passwords per address over every network: counted, never refused (slows down). */
    passwordAddress: { points: Number.MAX_SAFE_INTEGER, duration: numbers.passwordWindowSeconds, refusal: 'TOO_MANY_ATTEMPTS' },
    /** Requests with a session to routes that change or mail, per session holder (an operator, never
     *  the office's IP; a member on the contact form, never the carrier's shared address). */
    holder: { points: numbers.operatorRequestsPerHour, duration: 3600, refusal: 'TOO_MANY_ATTEMPTS' },
    code: { points: numbers.codeFailures, duration: numbers.codeWindowSeconds, refusal: 'TOO_MANY_ATTEMPTS' },
    /** Code mails per recipient and purpose (CODES_PER_HOUR). */
    recipient: { points: codesPerHour, duration: 3600, refusal: 'CODE_RATE_LIMITED' },
    /** Code and link mails per requesting network. */
    network: { points: numbers.mailsPerNetworkHour, duration: 3600, refusal: 'CODE_RATE_LIMITED' },
    /** The earliest login's own budgets: per address and Japan day (the day is in the key), and
     *  per requesting network. */
    earliestRecipient: { points: numbers.earliestLoginMailsPerDay, duration: 2 * 86400, refusal: 'CODE_RATE_LIMITED' },
    earliestNetwork: { points: numbers.earliestLoginPerNetworkHour, duration: 3600, refusal: 'CODE_RATE_LIMITED' },
  } satisfies Record<string, LimitShape>;
}

export type LimitKind = keyof ReturnType<typeof limitShapes>;

export interface LimitStore {
  db: Db;
  redis?: Redis;
  /** Namespaces the keys (tests sharing one Redis use their own). */
  prefix?: string;
}

/** How long a Redis look-up may take before the database answers alone. */
const REDIS_WAIT_MS = 50;

export function createRateLimits(numbers: LimitNumbers, codesPerHour: number, { db, redis, prefix = 'ms' }: LimitStore) {
  const shapes: Record<LimitKind, LimitShape> = limitShapes(numbers, codesPerHour);
  const limiters = Object.fromEntries(
    Object.entries(shapes).map(([kind, { points, duration }]) => [kind, new KyselyRateLimiter(db, { keyPrefix: `${prefix}:${kind}`, points, duration })]),
  ) as Record<LimitKind, KyselyRateLimiter>;
  const blockKey = (kind: LimitKind, key: string) => `${prefix}:block:${kind}:${key}`;

  /** Whether Redis remembers `key` as over its limit; any Redis trouble means "not known". */
  async function knownBlocked(kind: LimitKind, key: string): Promise<boolean> {
    if (!redis || redis.status !== 'ready') return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(resolve, REDIS_WAIT_MS, null)));
    try {
      return (await Promise.race([redis.get(blockKey(kind, key)), late])) !== null;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  function rememberBlocked(kind: LimitKind, key: string, ms: number): void {
    if (!redis || redis.status !== 'ready' || ms <= 0) return;
    redis.set(blockKey(kind, key), '1', 'PX', ms).catch(() => {});
  }

  return {
    shapes,
    /** Counts one attempt against `key` before the attempt is made (so parallel attempts all
     *  count); over the limit: the kind's refusal (429). */
    async hit(kind: LimitKind, key: string, refusal: ErrorCode = shapes[kind].refusal): Promise<void> {
      if (await knownBlocked(kind, key)) throw new ApiError(refusal);
      try {
        await limiters[kind].consume(key);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error; // a store error is not a verdict
        rememberBlocked(kind, key, error.msBeforeNext);
        throw new ApiError(refusal);
      }
    },
    /** Counts one more against `key` and says how many it now holds (for counters that slow
     *  down or tell rather than refuse). */
    async count(kind: LimitKind, key: string): Promise<number> {
      try {
        return (await limiters[kind].consume(key)).consumedPoints;
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        return error.consumedPoints;
      }
    },
    /** How many `key` holds now, counting nothing. */
    async peek(kind: LimitKind, key: string): Promise<number> {
      return (await limiters[kind].get(key))?.consumedPoints ?? 0;
    },
    /** Takes back an attempt that succeeded (or a mail that was never sent). */
    async giveBack(kind: LimitKind, key: string): Promise<void> {
      await limiters[kind].reward(key, 1);
    },
    /** Forgets every count of `kind` whose key ends in `:<suffix>` (a password reset ends the
     *  wrong-password runs of the address from every network). Reads the keys' index range
     *  for the kind, not the table. */
    async forgetEndingIn(kind: LimitKind, suffix: string): Promise<void> {
      const like = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
      await db
        .deleteFrom('rate_limits')
        .where('key', '>=', `${prefix}:${kind}:`)
        .where('key', '<', `${prefix}:${kind};`)
        .where(sql<boolean>`key like ${`${like(`${prefix}:${kind}:`)}%:${like(suffix)}`} escape '\\'`)
        .execute();
      if (!redis || redis.status !== 'ready') return;
      const glob = (text: string) => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
      const stream = redis.scanStream({ match: `${glob(`${prefix}:block:${kind}:`)}*:${glob(suffix)}`, count: 500 });
      for await (const keys of stream as AsyncIterable<string[]>) if (keys.length) await redis.del(...keys).catch(() => 0);
    },
    /** Starts the count afresh (a correct password ends a run of wrong ones). */
    async reset(kind: LimitKind, key: string): Promise<void> {
      await limiters[kind].delete(key);
      if (redis && redis.status === 'ready') await redis.del(blockKey(kind, key)).catch(() => 0);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

/** The slow-down after `failures` wrong tries when it starts after `after`: `stepMs` for the
 *  first one past it, doubled for each further one, never above `maxMs` (docs/decisions/015). */
export function slowDownMs(failures: number, { after, stepMs, maxMs }: { after: number; stepMs: number; maxMs: number }): number {
  if (failures <= after) return 0;
  return Math.min(maxMs, stepMs * 2 ** Math.min(30, failures - after - 1));
}
