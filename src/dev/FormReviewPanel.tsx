// One form on the review page: the real SchemaForm with its master lists, plus the review
// buttons. Nothing here is stored or sent except the verdict request to the dev-only endpoint.
import { useEffect, useRef, useState } from 'react';
import { forms } from 'virtual:form-index';
import texts from '../../messages/form-review.ja.json';
import { call, ApiFailure } from '../api/client';
import { getMasters, type MasterName } from '../api/masters';
import { isFormValid, SchemaForm, type FormModule, type SchemaFormHandle } from '../engine/SchemaForm';
import type { MasterOption } from '../engine/form-context';
import { format } from '../shared/format';
import { sampleData } from '../shared/sample-data';
import type { FieldErrors } from '../shared/validation/field-errors';
import { firstOf, isObject, type JsonObject } from '../shared/validation/schema-refs';
import { useStoredImpact } from './use-stored-impact';
import { textContradictions } from '../shared/validation/text-checks';

interface Verdict {
  valid: boolean;
  fields: FieldErrors;
}

type Notice = { kind: 'ok' | 'error' | 'warning'; lines: string[] };

/** The master a field draws from: x-master on its schema node, or the UI schema's ui:options.master. */
function masterOf(form: FormModule, field: string): string | undefined {
  const node = (form.schema.properties as JsonObject | undefined)?.[field];
  const fromSchema = isObject(node) ? node['x-master'] : undefined;
  const ui = form.uiSchema[field] as JsonObject | undefined;
  const fromUi = isObject(ui?.['ui:options']) ? (ui['ui:options'] as JsonObject).master : undefined;
  const name = fromSchema ?? fromUi;
  return typeof name === 'string' ? name : undefined;
}

/** Every master the form's fields name (including fields inside if/then branches). */
function mastersOf(form: FormModule): string[] {
  const names = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (typeof node['x-master'] === 'string') names.add(node['x-master']);
    const options = node['ui:options'];
    if (isObject(options) && typeof options.master === 'string') names.add(options.master);
    Object.values(node).forEach(visit);
  };
  visit(form.schema);
  visit(form.uiSchema);
  return [...names].sort();
}

/** A field's label as the form shows it (the UI schema's title, else the schema's). */
function labelOf(form: FormModule, field: string): string {
  const ui = form.uiSchema[field] as JsonObject | undefined;
  const node = (form.schema.properties as JsonObject | undefined)?.[field];
  const title = ui?.['ui:title'] ?? (isObject(node) ? firstOf(form.schema as JsonObject, node, 'title') : undefined);
  return typeof title === 'string' ? title : field;
}

// The verdict is listed in a notice rather than under the fields, so the form's own messages
// and the server's stand side by side for comparison.
export function FormReviewPanel({ name }: { name: string }) {
  const [form, setForm] = useState<FormModule>();
  const [masters, setMasters] = useState<Record<string, MasterOption[]>>({});
  const [data, setData] = useState<JsonObject>({});
  const [notice, setNotice] = useState<Notice>();
  const handle = useRef<SchemaFormHandle>(null);

  useEffect(() => {
    let live = true;
    void forms[name]().then(async (module) => {
      const loaded: FormModule = { name: module.name, schema: module.schema, uiSchema: module.uiSchema, validateFns: module.validateFns, fieldValidateFns: module.fieldValidateFns, widgets: module.widgets, fields: module.fields, templates: module.templates };
      if (!live) return;
      setForm(loaded);
      const wanted = mastersOf(loaded);
      if (wanted.length === 0) return;
      try {
        const lists = await getMasters(wanted as MasterName[]);
        if (live) setMasters(lists);
      } catch {
        if (live) setNotice({ kind: 'error', lines: [texts.mastersFailed] });
      }
    });
    return () => {
      live = false;
    };
  }, [name]);

  const impact = useStoredImpact(name, form?.uiSchema);

  if (!form) return <p className="loading">{texts.loading}</p>;
  const contradictions = textContradictions(form.schema as JsonObject, form.uiSchema as JsonObject, texts.optionalWording);

  const change = (next: JsonObject) => {
    setData(next);
    setNotice(undefined);
  };
  const fillSample = () => {
    const sample = sampleData(form.schema as JsonObject, { masters, masterOf: (field) => masterOf(form, field) });
    setData(sample);
    setNotice(isFormValid(form, sample) ? undefined : { kind: 'warning', lines: [texts.sampleInvalid] });
  };
  const askServer = async () => {
    try {
      const verdict = await call<Verdict>('post', `/_dev/forms/${name}/verdict`, { auth: 'client', body: data });
      setNotice(
        verdict.valid
          ? { kind: 'ok', lines: [texts.serverValid] }
          : {
              kind: 'error',
              lines: [texts.serverInvalid, ...Object.entries(verdict.fields).flatMap(([field, list]) => list.map((message) => format(texts.serverField, { field: labelOf(form, field), key: field, message })))],
            },
      );
    } catch (error) {
      setNotice({ kind: 'error', lines: [format(texts.serverFailed, { message: error instanceof ApiFailure ? error.message : String(error) })] });
    }
  };

  return (
    <section className="form-review__panel" aria-labelledby="form-review-heading">
      <h2 id="form-review-heading">{format(texts.formHeading, { name })}</h2>
      <div className="actions form-review__tools">
        <button type="button" className="button button--secondary button--small" onClick={fillSample}>
          {texts.fillSample}
        </button>
        <button type="button" className="button button--secondary button--small" onClick={() => handle.current?.showAllErrors()}>
          {texts.showErrors}
        </button>
        <button type="button" className="button button--secondary button--small" onClick={() => void askServer()}>
          {texts.serverVerdict}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={() => change({})}>
          {texts.clear}
        </button>
      </div>
      {notice && (
        <div className={`notice notice--${notice.kind}`} role="status" data-testid="form-review-notice">
          {notice.lines.map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </div>
      )}
      {contradictions.length > 0 && (
        <div className="notice notice--warning" data-testid="form-review-contradictions">
          <p>{texts.contradictionsHeading}</p>
          <ul>
            {contradictions.map((c, i) => (
              <li key={i}>
                {format(c.kind === 'optional' ? texts.contradictionOptional : texts.contradictionNumber, {
                  label: labelOf(form, c.field),
                  field: c.field,
                  where: c.where,
                  found: c.found,
                  text: c.text,
                  numbers: (c.numbers ?? []).join(', ') || '-',
                })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {impact.summary && (
        <p className={`notice notice--${impact.summary.kind}`} data-testid="form-review-impact">
          {impact.summary.text}
        </p>
      )}
      <SchemaForm<JsonObject>
        ref={handle}
        form={form}
        uiOverrides={impact.uiOverrides}
        formData={data}
        onChange={change}
        masters={masters}
        onSubmit={() => setNotice({ kind: 'ok', lines: [texts.clientValid] })}
        actions={
          <div className="actions">
            <button type="submit" className="button button--primary">
              {texts.submit}
            </button>
          </div>
        }
      />
      <h3>{texts.dataHeading}</h3>
      <pre className="form-review__data" data-testid="form-review-data">
        {JSON.stringify(data, null, 2)}
      </pre>
    </section>
  );
}
