// Counts for the consortium's municipalities: never a person's data, and no count under the
// floor (5): such a count is null (shown as "under 5"), so no small group can be singled out. Read from the
// members' registrations (every account ever registered, withdrawn ones too: the programme's
// reach), grouped by ISO week in Japan time, purpose, prefecture of residence (from the current
// address, or its postal code's first digits when the address names none), age band (from the
// birthday, at the time of counting) and desired municipality (users.city, from the earlier
// generation's registration).
import type { Db } from '../../db/connect';
import { allMunicipalities } from '../../denshijiti';
import { masterOptions } from '../../masters';
import { now } from '../../services/clock';
import type { Count, Stats } from '../../../shared/admin-api';
import recordMessages from '../../../../messages/operator.ja.json';

export const STATS_FLOOR = 5;

const floored = (count: number): number | null => (count < STATS_FLOOR ? null : count);

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

/** Whole years from a YYYY-MM-DD birthday to `at` (Japan's calendar day), or undefined. */
export function ageOf(birthday: string, at: Date): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthday);
  if (!match) return undefined;
  const today = new Date(at.getTime() + 9 * 3600_000);
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age--;
  return age >= 0 && age < 130 ? age : undefined;
}

const texts = recordMessages.records.stats;

/** Age bands by their upper age (labels in messages/ja.json "records.stats.ageBands"). */
const AGE_BANDS = [
  { label: texts.ageBands.upTo19, upTo: 19 },
  { label: texts.ageBands.twenties, upTo: 29 },
  { label: texts.ageBands.thirties, upTo: 39 },
  { label: texts.ageBands.forties, upTo: 49 },
  { label: texts.ageBands.fifties, upTo: 59 },
  { label: texts.ageBands.sixties, upTo: 69 },
  { label: texts.ageBands.from70, upTo: Infinity },
];

/** The prefecture an address starts with (the 47 names of the municipality list). */
function prefectureOf(address: string, names: string[]): string | undefined {
  const text = address.trim();
  return names.find((name) => text.startsWith(name));
}

function counted(map: Map<string, number>, order?: string[]): Count[] {
  const labels = order ? order.filter((label) => map.has(label)) : [...map.keys()];
  return labels.map((label) => ({ label, count: floored(map.get(label)!) }));
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/** The counts of GET /v1/admin/stats (the route adds the time of counting). */
export async function stats(db: Db): Promise<Omit<Stats, 'at'>> {
  const labels = { unknown: texts.unknown };
  const rows = await db.selectFrom('users').select(['created_at', 'purpose', 'address_current', 'birthday', 'city']).execute();
  const municipalities = allMunicipalities();
  const prefectures = [...new Set(municipalities.map((m) => m.prefecture))];
  const cityName = new Map(municipalities.map((m) => [m.value, `${m.prefecture}${m.label}`]));
  const purposeLabel = new Map((await masterOptions(db, 'purpose')).map((o) => [o.value, o.label]));
  const at = now();

  const weeks = new Map<string, number>();
  const purposes = new Map<string, number>();
  const byPrefecture = new Map<string, number>();
  const ages = new Map<string, number>();
  const cities = new Map<string, number>();
  for (const row of rows) {
    bump(weeks, isoWeek(row.created_at));
    for (const code of row.purpose.split(',').filter(Boolean)) bump(purposes, purposeLabel.get(code) ?? code);
    bump(byPrefecture, prefectureOf(row.address_current, prefectures) ?? labels.unknown);
    const age = ageOf(row.birthday, at);
    bump(ages, age === undefined ? labels.unknown : AGE_BANDS.find((band) => age <= band.upTo)!.label);
    if (row.city) bump(cities, cityName.get(row.city) ?? row.city);
  }
  const byCount = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([label]) => label);
  return {
    floor: STATS_FLOOR,
    total: floored(rows.length),
    registrationsPerWeek: [...weeks.keys()].sort().map((week) => ({ week, count: floored(weeks.get(week)!) })),
    purposes: counted(purposes, [...purposeLabel.values(), ...[...purposes.keys()].filter((k) => ![...purposeLabel.values()].includes(k))]),
    prefectures: counted(byPrefecture, [...prefectures, labels.unknown]),
    ageBands: counted(ages, [...AGE_BANDS.map((band) => band.label), labels.unknown]),
    desiredMunicipalities: counted(cities, byCount(cities)),
  };
}
