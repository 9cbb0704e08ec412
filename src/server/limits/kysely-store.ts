// A rate-limiter-flexible store on the site's own database (SQLite or PostgreSQL through
// Kysely), so every instance on one database shares the counters without another service.
// One atomic upsert per hit, as the library's own PostgreSQL store does it.
import { sql } from 'kysely';
import { RateLimiterRes, type IRateLimiterOptions } from 'rate-limiter-flexible';
import RateLimiterStoreAbstract from 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js';
import type { Db } from '../db/connect';

interface Row {
  points: number | string;
  expire: number | string | null;
}

export class KyselyRateLimiter extends RateLimiterStoreAbstract {
  constructor(
    private readonly db: Db,
    options: IRateLimiterOptions,
  ) {
    super({ ...options, storeClient: db });
  }

  async _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<Row> {
    const at = Date.now();
    const expire = msDuration > 0 ? at + msDuration : null;
    const lapsed = sql<boolean>`rate_limits.expire <= ${at}`;
    return this.db
      .insertInto('rate_limits')
      .values({ key, points, expire })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          points: forceExpire ? points : sql<number>`case when ${lapsed} then ${points} else rate_limits.points + ${points} end`,
          expire: forceExpire ? expire : sql<number>`case when ${lapsed} then ${expire} else rate_limits.expire end`,
        }),
      )
      .returning(['points', 'expire'])
      .executeTakeFirstOrThrow();
  }

  async _get(key: string): Promise<Row | null> {
    const row = await this.db
      .selectFrom('rate_limits')
      .select(['points', 'expire'])
      .where('key', '=', key)
      .where((eb) => eb.or([eb('expire', '>', Date.now()), eb('expire', 'is', null)]))
      .executeTakeFirst();
    return row ?? null;
  }

  async _delete(key: string): Promise<boolean> {
    const done = await this.db.deleteFrom('rate_limits').where('key', '=', key).executeTakeFirst();
    return Number(done.numDeletedRows) > 0;
  }

  _getRateLimiterRes(_key: string, changedPoints: number, row: Row): RateLimiterRes {
    const points = Number(row.points);
    const expire = row.expire === null ? null : Number(row.expire);
    const first = changedPoints === points;
    const consumed = first ? changedPoints : points;
    return new RateLimiterRes(Math.max(this.points - consumed, 0), expire === null ? -1 : Math.max(expire - Date.now(), 0), consumed, first);
  }
}

/** Forgets windows that ended over an hour ago (the table would otherwise only grow). */
export async function sweepRateLimits(db: Db): Promise<void> {
  await db.deleteFrom('rate_limits').where('expire', '<', Date.now() - 3600_000).execute();
}
