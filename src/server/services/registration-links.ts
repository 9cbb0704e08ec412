// The earlier generation's registration links: a mailed URL carrying a key of 256 random bits.
// Only a keyed hash of the key is stored; a link is checked any number of times while it lives
// (opening the page, reloading it, a mail scanner fetching it) and used up by the registration
// it proves (docs/decisions/006).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/connect';
import { iso, inSeconds, now } from './clock';
import type { RateLimits } from '../limits/rate-limits';
import verifyQuery from '../../../schemas/api/email-verify-query.json';
import { SERVER_CHECKS } from '../server-checks';

export interface LinkLimits {
  secret: string;
  registrationLinkSeconds: number;
}

/** A key has 256 random bits (the issue asks for at least 128), URL-safe. */
export function newLinkKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Keys are random enough for a bare hash, but keying it with the server secret means a copy of
 *  the table alone cannot even confirm a guessed key. */
export function hashLinkKey(secret: string, key: string): string {
  return createHmac('sha256', secret).update(`registration_link\n${key}`).digest('hex');
}

/** A well-formed key (43 base64url characters); anything else is refused before any lookup.
 *  The pattern is the key's rule in the GET /v1/email/verify query schema, which refuses a
 *  malformed key with its message before the route runs. */
export const LINK_KEY_PATTERN = new RegExp(verifyQuery.properties.key.pattern);

export function createRegistrationLinks(db: Db, limits: LinkLimits, rateLimits: RateLimits) {
  return {
    /** Issues a link for `email`: `send` mails it (or, for a registered address, mails a notice
     *  instead and gets a key nobody will see). The link is stored only after the relay accepted
     *  the mail, so a failed send uses no quota and leaves earlier links as they were. */
    async issue(email: string, network: string, send: (key: string) => Promise<void>): Promise<void> {
      // The same budgets as code mails, counted atomically: the requesting network's, then the
      // address's (links have their own count per address, and their own refusal).
      await rateLimits.hit('network', network);
      await rateLimits.hit('recipient', `registration_link:${email}`, SERVER_CHECKS.linkMails.answer);
      const key = newLinkKey();
      try {
        await send(key);
      } catch (error) {
        await rateLimits.giveBack('network', network);
        await rateLimits.giveBack('recipient', `registration_link:${email}`);
        throw error;
      }
      await db
        .insertInto('registration_links')
        .values({
          id: randomUUID(),
          key_hash: hashLinkKey(limits.secret, key),
          email,
          created_at: iso(now()),
          expires_at: inSeconds(limits.registrationLinkSeconds),
          used_at: null,
        })
        .execute();
    },

    /** The address a live, unused link proves; undefined for an unknown, used or expired key. */
    async check(key: string, tx: Db = db): Promise<{ id: string; email: string } | undefined> {
      if (!LINK_KEY_PATTERN.test(key)) return undefined;
      return tx
        .selectFrom('registration_links')
        .select(['id', 'email'])
        .where('key_hash', '=', hashLinkKey(limits.secret, key))
        .where('used_at', 'is', null)
        .where('expires_at', '>', iso(now()))
        .executeTakeFirst();
    },

    /** Uses the link up inside the registration's transaction; false when a parallel request
     *  used it first. */
    async use(tx: Db, id: string): Promise<boolean> {
      const done = await tx.updateTable('registration_links').set({ used_at: iso(now()) }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    async useAllFor(tx: Db, email: string): Promise<void> {
      await tx.updateTable('registration_links').set({ used_at: iso(now()) }).where('email', '=', email).where('used_at', 'is', null).execute();
    },
  };
}

export type RegistrationLinks = ReturnType<typeof createRegistrationLinks>;
