// The site's attempt limits (docs/decisions/015 has the numbers and their arithmetic). Counters
// live where every instance sees them: the database by default, Redis when REDIS_URL is set
// (with the database as the fallback while Redis is unreachable).
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '../db/connect';
import { ApiError } from '../errors';
import { KyselyRateLimiter } from './kysely-store';

export interface LimitNumbers {
  /** Credential, code and mail requests one client IP may make per window. */
  ipRequests: number;
  ipWindowSeconds: number;
  /** Wrong passwords in a row on one account (canonical address) before it is held. */
  passwordFailures: number;
  passwordWindowSeconds: number;
  /** Wrong e-mail codes one account may enter, over all purposes, per window. */
  codeFailures: number;
  codeWindowSeconds: number;
  /** Mail the site sends in answer to requests, all addresses together, per hour. */
  mailsPerHour: number;
  /** Contact acknowledgements one address (canonical) receives per day in Japan; inquiries
   *  beyond it are stored and answered alike, without the mail. */
  acknowledgementsPerDay: number;
}

export const DEFAULT_LIMITS: LimitNumbers = {
  ipRequests: 100,
  ipWindowSeconds: 15 * 60,
  passwordFailures: 100,
  passwordWindowSeconds: 24 * 3600,
  codeFailures: 20,
  codeWindowSeconds: 24 * 3600,
  mailsPerHour: 1000,
  acknowledgementsPerDay: 3,
};

export type LimitKind = 'ip' | 'password' | 'code' | 'mail';

export interface LimitStore {
  db: Db;
  redis?: Redis;
  /** Namespaces the keys (tests sharing one Redis use their own). */
  prefix?: string;
}

export function createRateLimits(numbers: LimitNumbers, { db, redis, prefix = 'ms' }: LimitStore) {
  const shape: Record<LimitKind, { points: number; duration: number }> = {
    ip: { points: numbers.ipRequests, duration: numbers.ipWindowSeconds },
    password: { points: numbers.passwordFailures, duration: numbers.passwordWindowSeconds },
    code: { points: numbers.codeFailures, duration: numbers.codeWindowSeconds },
    mail: { points: numbers.mailsPerHour, duration: 3600 },
  };
  const limiters = Object.fromEntries(
    Object.entries(shape).map(([kind, { points, duration }]) => {
      const keyPrefix = `${prefix}:${kind}`;
      const onDb = new KyselyRateLimiter(db, { keyPrefix, points, duration });
      const limiter: RateLimiterAbstract = redis
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration, rejectIfRedisNotReady: true, insuranceLimiter: onDb })
        : onDb;
      return [kind, limiter];
    }),
  ) as Record<LimitKind, RateLimiterAbstract>;

  /** A store error (not a verdict) must not be mistaken for "over the limit". */
  const verdict = (error: unknown): never => {
    if (error instanceof RateLimiterRes) throw new ApiError('TOO_MANY_ATTEMPTS');
    throw error;
  };

  return {
    /** Counts one attempt against `key` before the attempt is made (so parallel attempts all
     *  count); 429 TOO_MANY_ATTEMPTS when it goes over. */
    async hit(kind: LimitKind, key: string): Promise<void> {
      await limiters[kind].consume(key).catch(verdict);
    },
    /** Takes back an attempt that succeeded. */
    async giveBack(kind: LimitKind, key: string): Promise<void> {
      await limiters[kind].reward(key, 1);
    },
    /** Starts the count afresh (a correct password ends a run of wrong ones). */
    async reset(kind: LimitKind, key: string): Promise<void> {
      await limiters[kind].delete(key);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
