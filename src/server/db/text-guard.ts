// A last line of defence under every field schema: text that PostgreSQL cannot store (NUL) or
// that is not well-formed UTF-16 (a lone surrogate, which SQLite would store as invalid UTF-8
// and PostgreSQL would silently replace) never reaches the database. The query fails as a bad
// request (400 in Japanese), not as a 500 from the driver.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { ApiError } from '../errors';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

function check(node: unknown, depth = 0): void {
  if (typeof node === 'string') {
    if (!isStorableText(node)) throw new ApiError('BAD_REQUEST');
    return;
  }
  if (!node || typeof node !== 'object' || depth > 64) return;
  for (const value of Array.isArray(node) ? node : Object.values(node)) check(value, depth + 1);
}

export class TextGuardPlugin implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    // Only what writes text is walked (the hot reads stay cheap); a read with such text cannot
    // match a stored row, and PostgreSQL's refusal of it is answered 400 (db/errors.ts isBadData).
    if (node.kind === 'InsertQueryNode' || node.kind === 'UpdateQueryNode') check(node);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
