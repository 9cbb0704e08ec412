// The review page's view of the stored data (npm run impact's judgement of this form, from the
// dev-only endpoint): a line above the form and, beside each judged field, how many stored
// records it refuses. Read once per page load; a schema edit reloads the page.
import { useEffect, useMemo, useState } from 'react';
import type { UiSchema } from '@rjsf/utils';
import texts from '../../messages/form-review.ja.json';
import { call } from '../api/client';
import { format } from '../shared/format';
import type { StoredImpactAnswer } from '../shared/impact';

export interface StoredImpactView {
  summary?: { kind: 'ok' | 'warning' | 'error'; text: string };
  /** Each judged field's help with its note added (for SchemaForm's uiOverrides). */
  uiOverrides?: UiSchema;
}

export function useStoredImpact(name: string, uiSchema: UiSchema | undefined): StoredImpactView {
  const [answer, setAnswer] = useState<StoredImpactAnswer | { failed: string }>();
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const got = await call<StoredImpactAnswer>('get', `/_dev/forms/${name}/impact`, { auth: 'client' });
        if (live) setAnswer(got);
      } catch (error) {
        if (live) setAnswer({ failed: error instanceof Error ? error.message : String(error) });
      }
    })();
    return () => {
      live = false;
    };
  }, [name]);

  return useMemo(() => {
    if (!answer) return {};
    if ('failed' in answer) return { summary: { kind: 'error', text: format(texts.impactFailed, { message: answer.failed }) } };
    if (!answer?.impact || !answer.summary) return {};
    const uiOverrides: UiSchema = {};
    for (const [field, note] of Object.entries(answer.notes ?? {})) {
      const refused = answer.impact.fields.some((f) => f.field === field);
      const help = (uiSchema?.[field] as UiSchema | undefined)?.['ui:help'];
      uiOverrides[field] = {
        'ui:help': (
          <>
            {help}
            <span className={`form-review__impact${refused ? ' form-review__impact--refused' : ''}`} data-testid={`form-review-impact-${field}`}>
              {note}
            </span>
          </>
        ),
      };
    }
    return { summary: { kind: answer.impact.refused ? 'warning' : 'ok', text: answer.summary }, uiOverrides };
  }, [answer, uiSchema]);
}
