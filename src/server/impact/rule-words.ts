// A failed keyword in the product owner's words (messages/impact.ja.json "rules": a length, the
// required mark, a pattern by its description).
import texts from '../../../messages/impact.ja.json';
import { format } from '../../shared/format';
import type { Refusal } from './refusals';

type RuleTexts = typeof texts.rules;

const listed = (value: unknown) => (Array.isArray(value) ? value.map(String).join(texts.listSeparator) : String(value));

export function ruleWords({ keyword, value, description }: Pick<Refusal, 'keyword' | 'value' | 'description'>): string {
  const rules: RuleTexts = texts.rules;
  switch (keyword) {
    case 'pattern':
      return description ? format(rules.pattern, { description }) : format(rules.patternWithoutDescription, { pattern: String(value) });
    case 'format':
      return format(rules.format, { format: String(value) });
    case 'enum':
      return format(rules.enum, { values: listed(value) });
    case 'const':
      return format(rules.const, { value: listed(value) });
    case 'type':
      return format(rules.type, { type: listed(value) });
    default: {
      const template = (rules as Record<string, string>)[keyword];
      if (template === undefined) return format(rules.other, { keyword });
      return format(template, { limit: value === undefined ? '' : String(value) });
    }
  }
}
