// What a text field's own validator says of what is typed in it, before the form has caught up
// (catch-up.ts, ADR 028). The field's FieldTemplate holds it and shows its messages in place of
// the form's; the widget inside sets it on each key and clears it once the form has the value
// (the form's own messages, from the same schema node, then say the same). Only the field's
// template re-renders for a key, not the form.
import { createContext, useContext } from 'react';
import { engineContext } from './form-context';

export interface LiveVerdict {
  /** Nothing is typed (the field holds the widget's emptyValue). */
  empty: boolean;
  /** The schema's messages for what is typed, as the form will give them for the same value. */
  messages: readonly string[];
}

export type SetLiveVerdict = (verdict: LiveVerdict | null) => void;

/** The verdict on what is typed in the field, while the form does not have it yet (else null). */
export const LiveVerdictContext = createContext<LiveVerdict | null>(null);
export const SetLiveVerdictContext = createContext<SetLiveVerdict>(() => undefined);

export const useLiveVerdict = () => useContext(LiveVerdictContext);
export const useSetLiveVerdict = () => useContext(SetLiveVerdictContext);

/** Two verdicts that show the same (a key that changes neither re-renders nothing but its input). */
export const sameVerdict = (a: LiveVerdict | null, b: LiveVerdict | null) =>
  a === b || (!!a && !!b && a.empty === b.empty && a.messages.length === b.messages.length && a.messages.every((message, i) => message === b.messages[i]));

/** What a widget needs to judge its field: its id and name, and the form's context. */
interface Judged {
  id: string;
  name: string;
  registry: { formContext?: unknown };
}

/** The judge of a top-level field's typed value (its own validator on the form's data with that
 *  value), or undefined for a field inside another, which the form judges when it catches up. */
export function judgeOf({ id, name, registry }: Judged): ((value: unknown) => readonly string[] | undefined) | undefined {
  const ctx = engineContext(registry.formContext);
  if (!ctx || id !== `root_${name}`) return undefined;
  return (value) => ctx.fieldMessages(name, value);
}
