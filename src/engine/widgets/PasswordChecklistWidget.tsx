// A password input with a live checklist. The checklist is the field's own rules: each `allOf`
// item of its schema definition is one line, labelled by the item's `title`.
import type { RJSFSchema, WidgetProps } from '@rjsf/utils';
import { findSchemaDefinition } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import BaseInputTemplate from '../templates/BaseInputTemplate';

interface Rule {
  title?: string;
  minLength?: number;
  pattern?: string;
  not?: { pattern?: string };
}

function rawRules(root: RJSFSchema, name: string): Rule[] {
  let node = (root.properties?.[name] ?? {}) as RJSFSchema;
  for (let hops = 0; node.$ref && hops < 10; hops++) node = findSchemaDefinition(node.$ref, root) as RJSFSchema;
  return ((node.allOf ?? []) as Rule[]).filter((rule) => rule.title);
}

export function ruleHolds(rule: Rule, value: string): boolean {
  if (rule.minLength !== undefined && [...value].length < rule.minLength) return false;
  if (rule.pattern !== undefined && !new RegExp(rule.pattern, 'u').test(value)) return false;
  if (rule.not?.pattern !== undefined && (value === '' || new RegExp(rule.not.pattern, 'u').test(value))) return false;
  return true;
}

export default function PasswordChecklistWidget(props: WidgetProps) {
  const { registry, name, value, id } = props;
  const text = typeof value === 'string' ? value : '';
  const rules = rawRules(registry.rootSchema as RJSFSchema, name);
  return (
    <>
      <BaseInputTemplate {...props} type="password" options={{ ...props.options, describedBy: `${id}__checklist` }} />
      <ul className="checklist" id={`${id}__checklist`} aria-label={messages.form.passwordChecklist}>
        {rules.map((rule) => {
          const ok = ruleHolds(rule, text);
          return (
            <li key={rule.title} className={ok ? 'checklist__item checklist__item--ok' : 'checklist__item'}>
              <span aria-hidden="true">{ok ? messages.form.ruleMetMark : messages.form.ruleUnmetMark}</span> {rule.title}
              <span className="visually-hidden">{ok ? messages.form.ruleMet : messages.form.ruleUnmet}</span>
            </li>
          );
        })}
      </ul>
    </>
  );
}
