// The back office's member search (issue 34): what a clerk types, folded as the stored keys are
// (src/server/member-search-keys.ts), read as prefix ranges of member_search's (kind, key) index.
// A name typed in hiragana finds katakana, a kanji without its variation selector finds one with
// it, a roman name in either order and from any word of a multi-word family name, an address
// from its start, a register number (uketsuke bangou) whole or from its start or its serial digits, a phone number typed in
// any form by the start of its digits. Never a LIKE: no search reads every member.
import type { Db } from '../../db/connect';
import type { MemberSearchKind } from '../../db/types';
import { foldEmail, foldName, foldNumber, foldPhone, prefixEnd } from '../../member-search-keys';

/** What a search looks for: the key prefixes by kind, and, when what was typed is the start of a
 *  register number, that start in its stored form (R20260101-000123), for a list that has the
 *  application's number (a range of its unique index). */
export interface Search {
  text: string;
  terms: Array<{ kind: MemberSearchKind; prefix: string }>;
  number?: string;
}

/** Whether an application's register number is what `q` is (R + 8 digits + "-" + 6 digits). */
export const REGISTER_NUMBER = /^R\d{8}-\d{6}$/;

/** A phone number as typed: digits with hyphens, spaces, brackets, or +81 in front. */
const PHONE_LIKE = /^\+?[\d\s()-]+$/;
/** A register number's start as typed: R and digits (a hyphen after the date, or none). */
const NUMBER_LIKE = /^R\d[\d-]*$/;

/** The register number's start in its stored form: R, the 8-digit day, a hyphen, the serial. */
function storedNumberPrefix(folded: string): string {
  return folded.length > 9 ? `${folded.slice(0, 9)}-${folded.slice(9)}` : folded;
}

export function searchOf(q: string | undefined): Search | undefined {
  const text = (q ?? '').trim();
  if (!text) return undefined;
  const normalised = text.normalize('NFKC').trim();
  const terms: Search['terms'] = [];
  const add = (kind: MemberSearchKind, prefix: string | undefined) => {
    if (prefix && !terms.some((t) => t.kind === kind && t.prefix === prefix)) terms.push({ kind, prefix });
  };
  if (normalised.includes('@')) {
    add('email', foldEmail(normalised));
    return { text, terms };
  }
  const number = foldNumber(normalised);
  if (NUMBER_LIKE.test(normalised.toUpperCase()) && /^R\d+$/.test(number)) {
    add('number', number);
    return { text, terms, number: storedNumberPrefix(number) };
  }
  if (PHONE_LIKE.test(normalised) && /\d/.test(normalised)) {
    add('phone', foldPhone(normalised));
    // Digits alone may be a register number without its R, or its serial part.
    if (/^[\d-]+$/.test(normalised)) {
      add('number', `R${number}`);
      add('number', number);
    }
    return { text, terms };
  }
  add('name', foldName(normalised));
  // The start of an address, typed without its @.
  add('email', foldEmail(normalised));
  return { text, terms };
}

/** The members whose keys start with one of the search's prefixes: one index range each. */
function matchingMembers(db: Pick<Db, 'selectFrom'>, search: Search) {
  const ranges = search.terms.map(({ kind, prefix }) =>
    db.selectFrom('member_search').select('member_search.user_id').where('member_search.kind', '=', kind).where('member_search.key', '>=', prefix).where('member_search.key', '<', prefixEnd(prefix)),
  );
  const all = ranges.slice(1).reduce((union, range) => union.unionAll(range), ranges[0]!);
  // At most SEARCH_MATCHES keys are read: a search that finds more (a family name alone among
  // 100,000) is answered from those, said as "1,000 or more" (the list's bound), and the clerk
  // narrows it; its cost stays that of SEARCH_MATCHES members whatever the programme's size.
  return db.selectFrom(all.as('matched')).select('matched.user_id').limit(SEARCH_MATCHES);
}

/** The most keys a search reads (one more than the lists' count bound, so the list can say "more"). */
export const SEARCH_MATCHES = 1001;

/** `query` narrowed to members matching `search` (users joined as `users`). A register number's
 *  start narrows by `numberColumn` when the list has one (a range of the application's number). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function whereMember<Q extends { where: (...args: any[]) => Q }>(query: Q, search: Search | undefined, numberColumn?: string): Q {
  if (!search) return query;
  if (search.number && numberColumn) {
    // The numbers starting so, at most SEARCH_MATCHES of them (R2026 is every application of the
    // year: the list is answered from the first 1,001, said as "1,000 or more", never sorted whole).
    const number = search.number;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return query.where((eb: any) =>
      eb.and([
        eb('users.id', 'in', eb.selectFrom('applications as numbered').select('numbered.user_id').where('numbered.register_number', '>=', number).where('numbered.register_number', '<', prefixEnd(number)).limit(SEARCH_MATCHES)),
        eb(numberColumn, '>=', number),
        eb(numberColumn, '<', prefixEnd(number)),
      ]),
    );
  }
  if (search.terms.length === 0) return query.where('users.id', '=', '');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return query.where((eb: any) => eb('users.id', 'in', matchingMembers(eb, search)));
}

/** The members a search finds, by id (the statement the query-plan tests explain). */
export const memberSearchQuery = (db: Db, search: Search) => matchingMembers(db, search);
