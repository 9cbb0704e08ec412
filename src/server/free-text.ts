import { canonicalEmail } from '../shared/canonical-email';

/** The spec counts free-text lengths after trimming; the form trims on blur, and every payload
 *  is trimmed the same way before it is validated. */
const FREE_TEXT = ['purpose_detail', 'purpose_other', 'industry_other', 'address_current', 'reason'];

/** Every payload field that carries an e-mail address. */
const EMAIL_FIELDS = ['email'];

function mapFields(body: unknown, keys: string[], change: (text: string) => string): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy = { ...(body as Record<string, unknown>) };
  for (const key of keys) {
    if (typeof copy[key] === 'string') copy[key] = change(copy[key] as string);
  }
  return copy;
}

/** The body as the schemas check it: free text trimmed. */
export const trimFreeText = (body: unknown) => mapFields(body, FREE_TEXT, (text) => text.trim());

/** A validated body as the services use it: addresses in their canonical form, so lookups,
 *  codes, limits and the unique index all see one spelling per mailbox. */
export const canonicaliseEmails = (body: unknown) => mapFields(body, EMAIL_FIELDS, canonicalEmail);
