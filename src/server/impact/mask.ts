// Masked examples for the impact report: enough to see what kind of value a rule refuses (its
// shape, its length), never whose it is. A product owner reads the report; a member's name,
// address, phone or text must not reach it.
import texts from '../../../messages/impact.ja.json';

/** A star as wide as the character it hides: the wide star for kanji, kana and other full-width text. */
const starFor = (char: string) => (/^[\x20-\x7E\uFF61-\uFF9F]$/.test(char) ? texts.maskNarrow : texts.maskWide);

/** Every character a star. */
const stars = (chars: string[]) => chars.map(starFor).join('');

/** The first character kept, the rest starred (a value of one character is starred whole, or
 *  the first character would be all of it). */
function keepFirst(text: string): string {
  const chars = Array.from(text);
  return chars.length <= 1 ? stars(chars) : chars[0] + stars(chars.slice(1));
}

/** A kanji family name keeps its first character, Yamada → Y*****; a long text shows its first `shown` characters' worth and "…". */
export function maskText(text: string, shown = 10): string {
  const chars = Array.from(text);
  const masked = keepFirst(chars.slice(0, shown).join(''));
  return chars.length > shown ? `${masked}…` : masked;
}

/** taro@example.com → t***@e******.com: the local part and every domain label but the last
 *  keep their first character. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  const labels = address.slice(at + 1).split('.');
  const domain = labels.map((label, i) => (i === labels.length - 1 && labels.length > 1 ? label : keepFirst(label))).join('.');
  return `${keepFirst(address.slice(0, at))}@${domain}`;
}

/** 090-1234-5678 → 0**-****-***8: the first and last digit kept, separators kept; a value with
 *  two digits or fewer is starred whole. */
export function maskDigits(text: string): string {
  const chars = Array.from(text);
  const digits = chars.map((c, i) => (/\p{Nd}/u.test(c) ? i : -1)).filter((i) => i >= 0);
  const keep = digits.length > 2 ? new Set([digits[0], digits[digits.length - 1]]) : new Set<number>();
  return chars.map((c, i) => (digits.includes(i) && !keep.has(i) ? starFor(c) : c)).join('');
}

const EMAIL = /^[^@\s]+@[^@\s]+$/;
/** Digits with the separators phone numbers, postal codes and dates are written with (hyphens,
 *  long vowel mark, slashes, colons, brackets and plus, half- and full-width; spaces). */
const DIGITS = /^[\p{Nd}\-\u2010\uFF0D\u30FC/\uFF0F.:\uFF1A()\uFF08\uFF09+\uFF0B\s\u3000]*\p{Nd}[\p{Nd}\-\u2010\uFF0D\u30FC/\uFF0F.:\uFF1A()\uFF08\uFF09+\uFF0B\s\u3000]*$/u;

/** Any stored value, masked by its shape: an address, digits, or text. */
export function maskValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(maskValue).join(',');
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return maskDigits(String(value));
  if (typeof value !== 'string') return '{…}';
  if (EMAIL.test(value)) return maskEmail(value);
  if (DIGITS.test(value)) return maskDigits(value);
  return maskText(value);
}
