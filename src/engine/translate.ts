import { englishStringTranslator, TranslatableString } from '@rjsf/utils';
import messages from '../../messages/ja.json';

const japanese = messages.engine as Record<string, string>;
// The enum's values are the English strings rjsf passes in; its names key messages/ja.json.
const nameOf = new Map<string, string>(Object.entries(TranslatableString).map(([name, english]) => [english, name]));

/** rjsf's own strings in Japanese (messages/ja.json "engine"). */
export function translateString(key: TranslatableString, params?: string[]): string {
  const template = japanese[nameOf.get(key) ?? ''];
  return englishStringTranslator((template ?? key) as TranslatableString, params);
}
