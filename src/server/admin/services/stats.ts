// Counts for the consortium's municipalities (docs/decisions/033): never a person's data, every
// category listed, no count under the floor (5) and none that can be worked out by subtraction
// (stats-suppression.ts), as of the end of the previous Japan day, so one registration cannot be
// watched arrive. Read from the members' registrations (every account ever registered, withdrawn
// ones too: the programme's reach), grouped by ISO week in Japan time, purpose, prefecture of
// residence (from the current address), age band (from the birthday, at the end of the day the
// figures are as of) and desired municipality (users.city, from the earlier generation's registration).
//
// The figures are computed once a day from SQL aggregates (GROUP BY over bounded keys: the day
// of registration in Japan, the purpose string, the address's first four characters, the birthday, the
// city code), folded into the dimensions here (rows bounded by distinct values, not by members),
// and kept in stats_snapshots (stats-snapshot.ts); a view reads that one row.
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../db/connect';
import { allMunicipalities } from '../../denshijiti';
import { masterOptions } from '../../masters';
import type { Count, Stats } from '../../../shared/admin-api';
import type { Municipality } from '../../../shared/api-types';
import recordMessages from '../../../../messages/operator.ja.json';
import { publish, type Cell } from './stats-suppression';

export const STATS_FLOOR = 5;

/** Members per GROUP BY statement on SQLite, whose driver runs each statement on the event loop:
 *  the members are split into ranges of created_at (keyset on users_list) with a turn of the
 *  event loop between two statements, so none holds it long (measured in docs/decisions/033).
 *  PostgreSQL runs each dimension's statement over all members at once (it does not hold the loop). */
export const STATS_RANGE = 1500;

/** The ISO week (YYYY-Www) of an instant, in Japan time. */
export function isoWeek(at: string): string {
  const japan = new Date(Date.parse(at) + 9 * 3600_000);
  const day = new Date(Date.UTC(japan.getUTCFullYear(), japan.getUTCMonth(), japan.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** Whole years from a YYYY-MM-DD birthday to a Japan day (YYYY-MM-DD), or undefined: counted on
 *  the text, with no Date per birthday (a snapshot folds tens of thousands of them). */
export function ageOn(birthday: string, day: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(birthday)) return undefined;
  const age = Number(day.slice(0, 4)) - Number(birthday.slice(0, 4)) - (day.slice(5) < birthday.slice(5) ? 1 : 0);
  return age >= 0 && age < 130 ? age : undefined;
}

/** The Japan day (YYYY-MM-DD) the figures of a view at `at` are as of: the day before. */
export function statsDayOf(at: Date): string {
  return new Date(at.getTime() + 9 * 3600_000 - 86400_000).toISOString().slice(0, 10);
}

/** The end of a Japan day (YYYY-MM-DD) as an ISO instant: members created before it are counted. */
export const endOfJapanDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86400_000 - 9 * 3600_000).toISOString();

const texts = recordMessages.records.stats;

/** Age bands by their upper age (labels in messages/operator.ja.json "records.stats.ageBands"). */
const AGE_BANDS = [
  { label: texts.ageBands.upTo19, upTo: 19 },
  { label: texts.ageBands.twenties, upTo: 29 },
  { label: texts.ageBands.thirties, upTo: 39 },
  { label: texts.ageBands.forties, upTo: 49 },
  { label: texts.ageBands.fifties, upTo: 59 },
  { label: texts.ageBands.sixties, upTo: 69 },
  { label: texts.ageBands.from70, upTo: Infinity },
];

/** The aggregates of one dimension: a grouped key and its number of members. */
type Grouped = Map<string, number>;
const add = (map: Grouped, key: string, count: number) => map.set(key, (map.get(key) ?? 0) + count);

/** The five GROUP BY keys. The day of registration (the UTC day and whether it was already the
 *  next day in Japan) and the address's first four characters (a prefecture's name is three or
 *  four characters, as Tokyo-to or Kanagawa-ken) keep the groups few whatever the number of members. */
const KEYS = {
  // The UTC day, marked '+' from 15:00 (midnight in Japan): the Japan day is the next one.
  day: sql<string>`substr(created_at, 1, 10) || case when substr(created_at, 12, 2) >= '15' then '+' else '' end`,
  purpose: sql<string>`purpose`,
  // Leading spaces of either width are skipped, as the old count's trim() did.
  place: sql<string>`substr(ltrim(address_current, ${sql.lit(' \u3000')}), 1, 4)`,
  birthday: sql<string>`birthday`,
  city: sql<string>`city`,
};
type Key = keyof typeof KEYS;

/** The 47 prefectures' names, as the municipality list writes them. */
let prefectureNames: string[] | undefined;
const prefectureNamesOf = (): string[] => (prefectureNames ??= [...new Set(allMunicipalities().map((m) => m.prefecture))]);

/** The prefecture a place key (an address's first four characters) is counted in. */
const prefectureOfPlace = (place: string): string | undefined => prefectureNamesOf().find((name) => place.startsWith(name));

/** The prefecture the statistics count an address in, as KEYS.place and the fold read it (leading
 *  spaces of either width skipped), or undefined (counted as unknown). The retention job keeps
 *  exactly this of an erased member's address (ADR 041). */
export const statsPrefectureOf = (address: string): string | undefined => prefectureOfPlace(address.replace(/^[ \u3000]+/, '').slice(0, 4));

/** One dimension's GROUP BY over the members created in [from, to) (to: the end of the day). */
export function statsGroupQuery(db: Db, key: Key, from: string | undefined, to: string) {
  let query = db
    .selectFrom('users')
    .select((eb) => [KEYS[key].as('key'), eb.fn.countAll<number | string>().as('members')])
    .where('created_at', '<', to);
  if (from !== undefined) query = query.where('created_at', '>=', from);
  return query.groupBy(KEYS[key]);
}

/** Where the next range of about `size` members starts after `from` (keyset on users_list),
 *  or undefined when the rest up to `to` is one range. */
export function statsRangeQuery(db: Db, from: string | undefined, to: string, size: number) {
  let query = db.selectFrom('users').select('created_at').where('created_at', '<', to);
  if (from !== undefined) query = query.where('created_at', '>', from);
  return query.orderBy('created_at').limit(1).offset(size);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Folds grouped rows (tens of thousands of birthdays at most) with a turn of the event loop
 *  every FOLD_TURN rows. */
const FOLD_TURN = 2000;
async function inTurns(map: Grouped, fold: (key: string, n: number) => void): Promise<void> {
  let i = 0;
  for (const [key, n] of map) {
    fold(key, n);
    if (++i % FOLD_TURN === 0) await nextTurn();
  }
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The grouped counts of every key over the members created before `to`. */
async function aggregates(db: Db, to: string, rangeSize: number | undefined): Promise<Record<Key, Grouped>> {
  const out = Object.fromEntries(Object.keys(KEYS).map((key) => [key, new Map()])) as Record<Key, Grouped>;
  const size = rangeSize ?? (isPostgres(db) ? Infinity : STATS_RANGE);
  let from: string | undefined;
  for (;;) {
    const next = size === Infinity ? undefined : (await statsRangeQuery(db, from, to, size).executeTakeFirst())?.created_at;
    // Several members may share the boundary's instant: the range ends before it, the next starts at it.
    const end = next !== undefined && next !== from ? next : to;
    for (const key of Object.keys(KEYS) as Key[]) {
      for (const row of await statsGroupQuery(db, key, from, end).execute()) add(out[key], row.key ?? '', Number(row.members));
      await nextTurn();
    }
    if (end === to) return out;
    from = end;
  }
}

export interface StatsOptions {
  /** The Japan day (YYYY-MM-DD) the figures are as of: members created up to its end. */
  day: string;
  /** The municipalities the registration offers (ctx.municipalities): the participating ones, or
   *  every municipality of the country when none is named (schemas/masters/denshijiti.json). */
  municipalities: readonly Municipality[];
  /** Members per GROUP BY (default: STATS_RANGE on SQLite, all at once on PostgreSQL; tests make it small to cross ranges). */
  rangeSize?: number;
}

/** The published figures (the route adds when they were computed) from SQL aggregates. */
export async function computeStats(db: Db, { day, municipalities, rangeSize }: StatsOptions): Promise<Omit<Stats, 'at'>> {
  const end = endOfJapanDay(day);
  const grouped = await aggregates(db, end, rangeSize);
  const floor = STATS_FLOOR;
  const unknown = texts.unknown;
  const cells = (labels: string[], counts: Grouped): Cell[] => labels.map((label) => ({ label, count: counts.get(label) ?? 0 }));
  const total = [...grouped.day.values()].reduce((sum, n) => sum + n, 0);

  // Weeks: every ISO week from the first registration's to the day's.
  const instantOf = (key: string) => (key.endsWith('+') ? `${key.slice(0, 10)}T15:00:00.000Z` : `${key}T00:00:00.000Z`);
  const weeks: Grouped = new Map();
  await inTurns(grouped.day, (key, n) => add(weeks, isoWeek(instantOf(key)), n));
  const lastWeek = isoWeek(new Date(Date.parse(end) - 1).toISOString());
  const firstDay = [...grouped.day.keys()].sort()[0];
  const weekLabels: string[] = [];
  for (let at = firstDay ? Date.parse(instantOf(firstDay)) : Date.parse(end) - 1; ; at += 7 * 86400_000) {
    const week = isoWeek(new Date(at).toISOString());
    if (week > lastWeek) break;
    weekLabels.push(week);
    if (week === lastWeek) break;
  }

  // Purposes: a member may pick several (not additive); codes no longer among the options are not counted.
  const options = await masterOptions(db, 'purpose');
  const purposes: Grouped = new Map();
  for (const [value, n] of grouped.purpose) for (const code of new Set(value.split(',').filter(Boolean))) add(purposes, code, n);

  const prefectureNames = prefectureNamesOf();
  const prefectures: Grouped = new Map();
  for (const [place, n] of grouped.place) add(prefectures, prefectureOfPlace(place) ?? unknown, n);

  const ages: Grouped = new Map();
  await inTurns(grouped.birthday, (birthday, n) => {
    const age = ageOn(birthday, day);
    add(ages, age === undefined ? unknown : AGE_BANDS.find((band) => age <= band.upTo)!.label, n);
  });

  // Desired municipalities: those the registration offers, plus no wish and a code no longer offered.
  const offered = new Map(municipalities.map((m) => [m.value, m]));
  const byCode: Grouped = new Map();
  for (const [city, n] of grouped.city) add(byCode, city === '' ? '' : offered.has(city) ? city : '?', n);
  let listed = municipalities;
  let others: number | undefined;
  if (municipalities.length >= allMunicipalities().length) {
    // The whole country is offered (1,700-odd municipalities): the municipalities of each
    // prefecture that `floor` or more members want are listed, every other prefecture is one cell.
    const perPrefecture: Grouped = new Map();
    for (const [code, n] of byCode) if (offered.has(code)) add(perPrefecture, offered.get(code)!.prefecture, n);
    listed = municipalities.filter((m) => (perPrefecture.get(m.prefecture) ?? 0) >= floor);
    const shown = new Set(listed.map((m) => m.value));
    others = [...byCode].filter(([code]) => offered.has(code) && !shown.has(code)).reduce((sum, [, n]) => sum + n, 0);
  }
  const cityCells: Cell[] = [
    ...listed.map((m) => ({ label: `${m.prefecture}${m.label}`, count: byCode.get(m.value) ?? 0 })),
    ...(others === undefined ? [] : [{ label: texts.otherPrefectures, count: others }]),
    { label: texts.noWish, count: byCode.get('') ?? 0 },
    { label: unknown, count: byCode.get('?') ?? 0 },
  ];

  const published = publish(
    {
      registrationsPerWeek: { cells: cells(weekLabels, weeks), additive: true },
      purposes: { cells: options.map((o) => ({ label: o.label, count: purposes.get(o.value) ?? 0 })), additive: false },
      prefectures: { cells: cells([...prefectureNames, unknown], prefectures), additive: true },
      ageBands: { cells: cells([...AGE_BANDS.map((band) => band.label), unknown], ages), additive: true },
      desiredMunicipalities: { cells: cityCells, additive: true },
    },
    total,
    floor,
  );
  const { registrationsPerWeek, ...counts } = published.dimensions;
  return {
    asOf: day,
    floor,
    total: published.total,
    ...(published.total === null ? { totalSuppressed: total < floor ? ('floor' as const) : ('complement' as const) } : {}),
    registrationsPerWeek: registrationsPerWeek.map(({ label, ...rest }) => ({ week: label, ...rest })),
    ...(counts satisfies Record<string, Count[]>),
  };
}
