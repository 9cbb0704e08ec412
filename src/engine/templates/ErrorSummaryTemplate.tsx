import type { ErrorListProps } from '@rjsf/utils';
import { ErrorSummary } from '../ErrorSummary';
import { summaryItems } from '../error-summary-items';
import { engineContext } from '../form-context';

/** rjsf's error list, at the top of the form: the engine's error summary, once a submit was
 *  refused (unless the screen gathers several forms into one summary of its own). */
export default function ErrorSummaryTemplate({ errors, schema, uiSchema, registry }: ErrorListProps) {
  const ctx = engineContext(registry.formContext);
  if (!ctx?.summary) return null;
  return <ErrorSummary items={summaryItems({ schema, uiSchema: uiSchema ?? {} }, errors)} attempt={ctx.attempt} takeFocus={ctx.takeFocus} />;
}
