// Messages, placeholders and help texts may name the limits of the schema node they describe:
// `{limit}` is the value of the keyword the message is for, `{min}`/`{max}` the node's lower
// and upper bounds. Filling them from the node keeps a number in exactly one place.
export type JsonNode = { [key: string]: unknown };

const LIMIT_KEYWORDS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maximum', 'minimum'] as const;
const MIN_KEYWORDS = ['minLength', 'minItems', 'minimum'] as const;
const MAX_KEYWORDS = ['maxLength', 'maxItems', 'maximum'] as const;

function firstNumber(node: JsonNode, keywords: readonly string[]): number | undefined {
  for (const keyword of keywords) if (typeof node[keyword] === 'number') return node[keyword] as number;
  return undefined;
}

/** `message` with `{limit}`, `{min}` and `{max}` replaced from `node` (a placeholder whose value
 *  the node does not have is left as it is, so a test can find it). */
export function fillMessage(message: string, node: JsonNode, keyword?: string): string {
  const values: Record<string, number | undefined> = {
    limit: keyword && (LIMIT_KEYWORDS as readonly string[]).includes(keyword) ? firstNumber(node, [keyword]) : undefined,
    min: firstNumber(node, MIN_KEYWORDS),
    max: firstNumber(node, MAX_KEYWORDS),
  };
  return message.replace(/\{(limit|min|max)\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name])));
}
