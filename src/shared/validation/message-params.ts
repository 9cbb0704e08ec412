// Parameterised messages: a message, placeholder or help text in schemas/ may say `{limit}`,
// `{min}` or `{max}` instead of writing a number, so a limit is written once (on its keyword)
// and every text that states it follows an edit. Filled when schemas are loaded or bundled,
// so precompiled client validators, the server and the UI all show the same finished text.
export type SchemaNode = Record<string, unknown>;

/** The keywords a `{limit}` may stand for. */
export const LIMIT_KEYWORDS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maximum', 'minimum'] as const;
const MIN_KEYWORDS = ['minLength', 'minItems', 'minimum'] as const;
const MAX_KEYWORDS = ['maxLength', 'maxItems', 'maximum'] as const;

const PLACEHOLDER = /\{(limit|min|max)\}/g;

function numberAt(node: SchemaNode, keywords: readonly string[]): number | undefined {
  for (const keyword of keywords) {
    const value = node[keyword];
    if (typeof value === 'number') return value;
  }
  return undefined;
}

/** `{limit}` is the value of the keyword the message is for (`keyword`, e.g. "maxLength"); with
 *  no keyword (a placeholder or help text) it is the node's only limit keyword, if it has one.
 *  `{min}` / `{max}` are the node's minLength/minItems/minimum and maxLength/maxItems/maximum.
 *  A placeholder the node gives no number for is left as written, so a contract test sees it. */
export function fillMessage(message: string, node: SchemaNode, keyword?: string): string {
  if (!message.includes('{')) return message;
  return message.replace(PLACEHOLDER, (whole, name: string) => {
    let value: number | undefined;
    if (name === 'min') value = numberAt(node, MIN_KEYWORDS);
    else if (name === 'max') value = numberAt(node, MAX_KEYWORDS);
    else if (keyword && (LIMIT_KEYWORDS as readonly string[]).includes(keyword)) value = numberAt(node, [keyword]);
    else if (!keyword) {
      const present = LIMIT_KEYWORDS.filter((k) => typeof node[k] === 'number');
      if (present.length === 1) value = node[present[0]] as number;
    }
    return value === undefined ? whole : String(value);
  });
}

/** True when a text still holds a `{limit}`, `{min}` or `{max}` nobody filled. */
export function hasUnfilledParams(message: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(message);
}
