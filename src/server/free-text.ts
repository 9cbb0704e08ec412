/** The spec counts free-text lengths after trimming; the form trims on blur, and every payload
 *  is trimmed the same way before it is validated. */
const FREE_TEXT = ['purpose_detail', 'purpose_other', 'industry_other', 'address_current', 'reason'];

export function trimFreeText(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy = { ...(body as Record<string, unknown>) };
  for (const key of FREE_TEXT) {
    if (typeof copy[key] === 'string') copy[key] = (copy[key] as string).trim();
  }
  return copy;
}
