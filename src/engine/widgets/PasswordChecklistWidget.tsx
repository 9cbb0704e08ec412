// A password input with a live checklist. The checklist is the field's own rules: each `allOf`
// item of its schema definition is one line, labelled by the item's `title`, and ticked while the
// field's validator gives none of the item's messages (its own validator on each key, live-field.ts;
// the form's once it has the value), so a line and the message it stands for never disagree.
import type { RJSFSchema, WidgetProps } from '@rjsf/utils';
import { findSchemaDefinition } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import BaseInputTemplate from '../templates/BaseInputTemplate';
import { engineContext } from '../form-context';
import { useLiveVerdict } from '../live-field';

interface Rule {
  title: string;
  errorMessage?: Record<string, unknown> | string;
}

function rules(root: RJSFSchema, name: string): Rule[] {
  let node = (root.properties?.[name] ?? {}) as RJSFSchema;
  for (let hops = 0; node.$ref && hops < 10; hops++) node = findSchemaDefinition(node.$ref, root) as RJSFSchema;
  return ((node.allOf ?? []) as Array<Partial<Rule>>).filter((rule): rule is Rule => !!rule.title);
}

/** The messages a rule's failure shows (its errorMessage, per keyword or one for all). */
const messagesOf = (rule: Rule): unknown[] => (typeof rule.errorMessage === 'string' ? [rule.errorMessage] : Object.values(rule.errorMessage ?? {}));

export default function PasswordChecklistWidget(props: WidgetProps) {
  const { registry, name, value, id, rawErrors } = props;
  const live = useLiveVerdict();
  const ctx = engineContext(registry.formContext);
  // The field's messages on what is typed: live while the form does not have it yet, else the
  // form's value judged by the same validator (the form's own messages before its first check).
  const errors = live ? live.messages : (ctx?.fieldMessages(name, value) ?? rawErrors ?? []);
  // An empty password meets no rule, not even "no 8 of the same in a row".
  const typed = live ? !live.empty : typeof value === 'string' && value !== '';
  return (
    <>
      <BaseInputTemplate {...props} type="password" options={{ ...props.options, describedBy: `${id}__checklist` }} />
      {/* Unnamed: the input is described by the list, and a name would be all its description said
          (a described-by element's name stands for its text); so the rules and their state are. */}
      <ul className="checklist" id={`${id}__checklist`}>
        {rules(registry.rootSchema as RJSFSchema, name).map((rule) => {
          const ok = typed && !messagesOf(rule).some((message) => errors.includes(message as string));
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
