import { useLayoutEffect } from 'react';
import type { ErrorListProps } from '@rjsf/utils';
import { summaryItems } from '../error-summary-items';
import { engineContext } from '../form-context';

/** rjsf's error list: hands the errors to the form's error summary (SummarySlot in SchemaForm),
 *  which shows them at the top of the form once a submit was refused. rjsf mounts this only while
 *  there are errors, so the summary lives outside it: held as it was while a press is under way
 *  (after-pointer.ts), even when that press fixed the last error. */
export default function ErrorSummaryTemplate({ errors, schema, uiSchema, registry }: ErrorListProps) {
  const publish = engineContext(registry.formContext)?.publishSummary;
  const items = summaryItems({ schema, uiSchema: uiSchema ?? {} }, errors);
  const key = JSON.stringify(items);
  useLayoutEffect(() => {
    publish?.(items);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the items
  }, [key, publish]);
  useLayoutEffect(() => () => publish?.([]), [publish]);
  return null;
}
