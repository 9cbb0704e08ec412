/** The one form of an e-mail address the site compares and stores: trimmed, NFKC (full-width
 *  letters and the full-width at sign become ASCII) and lower-cased, so "Hanako@Example.com" and
 *  "hanako@example.com" are one account, one code limit and one mailbox. */
export function canonicalEmail(text: string): string {
  return text.trim().normalize('NFKC').toLowerCase();
}
