// The back office's member search keys (migration 019, docs/decisions/032): each member's names,
// address, phone and register numbers folded into short keys, stored in member_search and read
// by prefix as one range of its index (admin/services/member-search.ts). What a clerk types is
// folded by the same functions, so a name in hiragana finds it in katakana, a kanji without its
// variation selector finds it with one, and 090-1234 finds 09012345678. Every write that changes
// what the keys come from rewrites the member's keys in its own transaction (writeSearchKeys);
// `npm run operator -- reindex` rebuilds them all, and start-up indexes members that have none
// (rows loaded by SQL: an import, a restore).
import { PostgresAdapter } from 'kysely';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import type { Db } from './db/connect';
import type { MemberSearchKind } from './db/types';
import { canonicalEmail } from '../shared/canonical-email';
import { toPassportSpelling } from '../shared/passport-spelling';

const VARIATION_SELECTORS = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;
/** Hiragana (and its iteration marks) → katakana is a shift of 0x60. */
const HIRAGANA = /[\u3041-\u3096\u309D\u309E]/g;
/** Spaces of any width, the katakana middle dot (U+30FB) and the double hyphen a katakana name
 *  is written with (full-width equals, "=" after NFKC; U+30A0): not part of a name's key. */
const NAME_SEPARATORS = /[\s\u3000\u30FB=\u30A0]+/gu;
const HYPHENS = /[-\u2010-\u2015\u2212\u30FC\uFF0D\uFF70\u2043\uFE63]/g;

/** Latin letters with their marks and the apostrophes between them: what the passport spelling
 *  folds (a clerk's José or O'Brien finds the JOSE or OBRIEN the member record stores). */
const LATIN_RUN = /[\p{Script=Latin}'\u2019\u02BC][\p{Script=Latin}\p{M}'\u2019\u02BC]*/gu;

/** A name as its key: NFKC (one width: half-width kana full, full-width letters half), variation
 *  selectors removed, hiragana as katakana, roman letters in the passport spelling (docs/decisions/036),
 *  upper case, no spaces. */
export function foldName(text: string): string {
  return text
    .normalize('NFKC')
    .replace(LATIN_RUN, toPassportSpelling)
    .replace(VARIATION_SELECTORS, '')
    .replace(HIRAGANA, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60))
    .toUpperCase()
    .replace(NAME_SEPARATORS, '');
}

/** A phone number as its key: the national digits (+81 → 0, a "(0)" after it dropped), nothing
 *  else. Undefined when there are no digits. */
export function foldPhone(text: string): string | undefined {
  let value = text.normalize('NFKC').replace(/\s+/g, '');
  if (/^\+81/.test(value)) value = `0${value.slice(3).replace(/^[-(]*0?\)?/, '')}`;
  const digits = value.replace(/\D/g, '');
  return digits || undefined;
}

/** A register number (uketsuke bangou) as its key: upper case, no hyphens or spaces (R20260101000123). */
export function foldNumber(text: string): string {
  return text.normalize('NFKC').toUpperCase().replace(HYPHENS, '').replace(/\s+/g, '');
}

/** An address as its key: the site's one form of it (canonical-email.ts). */
export const foldEmail = (text: string): string => canonicalEmail(text);

export interface SearchKey {
  kind: MemberSearchKind;
  key: string;
}

export interface KeySource {
  email: string;
  last_name_kanji: string;
  first_name_kanji: string;
  last_name_alpha: string;
  first_name_alpha: string;
  phone: string;
}

/** Every key of a member: the name (family + given, and given alone; a family name is the start
 *  of the first), the roman name in both orders and from each later word of a multi-word family
 *  name (van der Berg: also der Berg, Berg), the address, the phone's digits, and each register
 *  number whole and its serial part (the 6 digits after the hyphen). */
export function searchKeysOf(member: KeySource, registerNumbers: readonly string[]): SearchKey[] {
  const keys = new Map<string, SearchKey>();
  const add = (kind: MemberSearchKind, key: string | undefined) => {
    if (key) keys.set(`${kind}\u0000${key}`, { kind, key });
  };
  add('name', foldName(member.last_name_kanji + member.first_name_kanji));
  add('name', foldName(member.first_name_kanji));
  const family = member.last_name_alpha.trim();
  const given = member.first_name_alpha.trim();
  if (family || given) {
    add('name', foldName(family + given));
    add('name', foldName(given + family));
    const words = family.split(/\s+/).filter(Boolean);
    for (let i = 1; i < words.length; i++) add('name', foldName(words.slice(i).join('') + given));
  }
  add('email', foldEmail(member.email));
  add('phone', foldPhone(member.phone));
  for (const number of registerNumbers) {
    add('number', foldNumber(number));
    add('number', /-(\d+)$/.exec(number)?.[1]);
  }
  return [...keys.values()];
}

/** The members' keys rewritten from their rows (users and applications), in the caller's
 *  transaction. On PostgreSQL the members' rows are locked first, so a rebuild and an edit of the
 *  same member take turns and the keys are always the committed row's. */
export async function writeSearchKeysOf(trx: Db, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  // An erased member (ADR 041) has no keys: theirs are deleted and none are written.
  let members = trx.selectFrom('users').select(['id', 'email', 'last_name_kanji', 'first_name_kanji', 'last_name_alpha', 'first_name_alpha', 'phone']).where('id', 'in', userIds).where('erased_at', 'is', null);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) members = members.forUpdate();
  const rows = await members.execute();
  const numbers = await trx.selectFrom('applications').select(['user_id', 'register_number']).where('user_id', 'in', userIds).execute();
  const numbersOf = new Map<string, string[]>();
  for (const { user_id, register_number } of numbers) numbersOf.set(user_id, [...(numbersOf.get(user_id) ?? []), register_number]);
  await trx.deleteFrom('member_search').where('user_id', 'in', userIds).execute();
  const values = rows.flatMap((row) => searchKeysOf(row, numbersOf.get(row.id) ?? []).map((k) => ({ user_id: row.id, kind: k.kind, key: k.key })));
  // Two starts indexing the same member at once: the second one's rows are already there.
  for (let i = 0; i < values.length; i += INSERT_ROWS) {
    await trx
      .insertInto('member_search')
      .values(values.slice(i, i + INSERT_ROWS))
      .onConflict((oc) => oc.columns(['user_id', 'kind', 'key']).doNothing())
      .execute();
  }
  return rows.length;
}

/** Rows per insert statement (3 values each: well under either database's parameter limit). */
const INSERT_ROWS = 500;

/** One member's keys rewritten, in the transaction of the write that changed them. */
export const writeSearchKeys = (trx: Db, userId: string): Promise<number> => writeSearchKeysOf(trx, [userId]);

/** Members a batch of the rebuild or the start-up check handles in one transaction. */
export const INDEX_BATCH = 100;

export interface IndexProgress {
  /** Members indexed so far. */
  members: number;
  /** Batches (transactions) so far. */
  batches: number;
}

export interface WalkOptions {
  batch?: number;
  onBatch?: (progress: IndexProgress) => void;
  /** Stops the walk before its next batch (the stack closing). */
  signal?: AbortSignal;
}

/** Walks members in id order, `batch` at a time (keyset on the primary key), rewriting the keys
 *  (all, or those with no keys at all); a turn of the event loop between batches, so requests are served
 *  meanwhile. */
async function walkMembers(db: Db, onlyUnindexed: boolean, { batch = INDEX_BATCH, onBatch, signal }: WalkOptions = {}): Promise<IndexProgress> {
  const progress: IndexProgress = { members: 0, batches: 0 };
  let after = '';
  for (;;) {
    if (signal?.aborted) return progress;
    let query = db.selectFrom('users').select('users.id').where('users.id', '>', after).orderBy('users.id').limit(batch);
    if (onlyUnindexed) {
      query = query
        .where('users.erased_at', 'is', null)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('member_search').select('member_search.user_id').whereRef('member_search.user_id', '=', 'users.id'))));
    }
    const ids = (await query.execute()).map((row) => row.id);
    if (ids.length === 0) return progress;
    progress.members += await db.transaction().execute((tx) => writeSearchKeysOf(tx, ids));
    progress.batches += 1;
    onBatch?.(progress);
    after = ids.at(-1)!;
    await yieldTurn();
  }
}

/** Every member's keys rebuilt from the tables (`npm run operator -- reindex`). */
export const reindexMembers = (db: Db, options?: WalkOptions) => walkMembers(db, false, options);

/** The start-up check: members with no keys at all (rows an import or a restore wrote by SQL)
 *  indexed. Safe with two instances at once: each writes a member's keys whole in one
 *  transaction, and rows the other wrote meanwhile are kept (on conflict do nothing). */
export const indexUnsearchedMembers = (db: Db, options?: WalkOptions) => walkMembers(db, true, options);

/** The smallest text above every text that starts with `prefix` (its last character raised by
 *  one): with key >= prefix, one range of the index in code-point order (SQLite's BINARY,
 *  PostgreSQL's "C" collation of member_search.key). */
export function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  return chars.join('') + String.fromCodePoint(next);
}
