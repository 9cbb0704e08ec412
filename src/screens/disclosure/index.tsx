// My data, the disclosure (issue 37, docs/decisions/040): everything the programme holds about the member,
// grouped and labelled by the schema that describes the JSON file (schemas/api/user-disclosure.json
// through src/shared/disclosure-view.ts, as the HTML file is), the office's views of it from the
// audit log, the download of both files, and a request for a correction or deletion.
import { useCallback, useEffect, useState } from 'react';
import * as requestForm from 'virtual:form/member-request';
import messages from '../../../messages/ja.json';
import disclosureSchema from '../../../schemas/api/user-disclosure.json';
import { Link } from '../../app/Link';
import { paths } from '../../app/paths.generated';
import { routeSetting } from '../../app/catalogue';
import { SchemaForm } from '../../engine/SchemaForm';
import { format } from '../../shared/format';
import { formatDateTime } from '../../shared/format-date';
import { disclosureSections, type DisclosureSection } from '../../shared/disclosure-view';
import type { JsonObject } from '../../shared/validation/schema-bundle';
import type { FieldErrors } from '../../shared/validation/field-errors';
import { ApiFailure } from '../../api/client';
import { downloadDisclosure, getDisclosure, sendDataRequest, type DisclosureFormat } from '../../api/disclosure';
import { datedFileName, saveFile } from '../../app/save-file';

const text = messages.disclosure;
const schema = disclosureSchema as unknown as JsonObject;
const VIEW = { formatDateTime, dash: messages.common.dash, listSeparator: messages.info.listSeparator };
const DUE_DAYS = routeSetting('disclosure', 'requestDueDays');

type Loaded = { state: 'loading' } | { state: 'error' } | { state: 'ok'; sections: DisclosureSection[] };

export default function DisclosureScreen() {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);
  const [request, setRequest] = useState<{ kind?: string; text?: string }>({});
  const [formRound, setFormRound] = useState(0);
  const [errors, setErrors] = useState<FieldErrors>();

  const reload = useCallback(
    () => getDisclosure().then((doc) => setLoaded({ state: 'ok', sections: disclosureSections(schema, doc, VIEW) }), () => setLoaded({ state: 'error' })),
    [],
  );
  useEffect(() => {
    void reload();
  }, [reload]);

  const download = async (kind: DisclosureFormat) => {
    setBusy(true);
    setSaid('');
    try {
      saveFile(await downloadDisclosure(kind), datedFileName('disclosure', kind));
      await reload();
    } catch (failure) {
      setSaid(failure instanceof ApiFailure && failure.status === 429 ? failure.message : text.downloadFailed);
    } finally {
      setBusy(false);
    }
  };

  const send = async (value: { kind?: string; text?: string }) => {
    setBusy(true);
    setSaid('');
    setErrors(undefined);
    try {
      const { request: made } = await sendDataRequest({ kind: value.kind ?? '', text: value.text ?? '' });
      setRequest({});
      setFormRound((round) => round + 1);
      setSaid(format(text.requestSent, { due: formatDateTime(made.due_at) }));
      await reload();
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields) setErrors(failure.fields);
      else setSaid(failure instanceof ApiFailure ? failure.message : text.requestFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p className="lead">{text.lead}</p>
      <p role="status" className={said ? 'notice notice--info' : undefined}>
        {said}
      </p>
      <section className="card" aria-labelledby="disclosure-download-title">
        <h2 id="disclosure-download-title" className="card__title">
          {text.downloadTitle}
        </h2>
        <p>{text.downloadNote}</p>
        <div className="actions">
          <button type="button" className="button button--secondary button--block" disabled={busy} onClick={() => void download('html')}>
            {text.downloadHtml}
          </button>
          <button type="button" className="button button--secondary button--block" disabled={busy} onClick={() => void download('json')}>
            {text.downloadJson}
          </button>
        </div>
      </section>
      <section className="card" aria-labelledby="disclosure-request-title">
        <h2 id="disclosure-request-title" className="card__title">
          {text.requestTitle}
        </h2>
        <p>{format(text.requestLead, { days: DUE_DAYS })}</p>
        <SchemaForm key={formRound} id="memberRequestForm" form={requestForm} formData={request} onChange={setRequest} onSubmit={send} serverErrors={errors} busy={busy} />
      </section>
      {loaded.state === 'loading' && <p className="loading">{text.loading}</p>}
      {loaded.state === 'error' && <p className="notice notice--error">{text.failed}</p>}
      {loaded.state === 'ok' &&
        loaded.sections.map((section) => (
          <section className="card" key={section.key} aria-labelledby={`disclosure-${section.key}`}>
            <h2 id={`disclosure-${section.key}`} className="card__title">
              {section.title}
            </h2>
            <p className="field__help">{section.description}</p>
            {section.items.length === 0 && <p>{text.empty}</p>}
            {section.items.map((item, index) => (
              <dl className="details details--wide" key={index}>
                {item.rows.map((row, at) => (
                  <div className="details__row" key={at}>
                    <dt>{row.label}</dt>
                    <dd>{row.value}</dd>
                  </div>
                ))}
              </dl>
            ))}
          </section>
        ))}
      <div className="links">
        <Link to={paths.mypage}>{text.back}</Link>
      </div>
    </>
  );
}
