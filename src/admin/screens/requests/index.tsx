// Members' correction and deletion requests (schemas/records/requests.json: open by default, by
// kind, soonest due first; an overdue one marked) and, at requests/:id, one request with its
// member and the form that handles it (done or refused, with the answer the member reads).
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import * as handleForm from 'virtual:form/admin-request-handle';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import type { FieldErrors } from '../../../shared/validation/field-errors';
import type { RequestDetail, RequestHandled, RequestHandleInput, RequestItem } from '../../../shared/admin-api';
import { adminCall, AdminFailure } from '../../api';
import { formatDateTime, label } from '../../format';
import { RECORD_KINDS } from '../../records/kinds';
import { RecordList } from '../../records/RecordList';
import { Done, Facts, Failure, failureText, Loading, useDraft, useLoad } from '../../ui';

const Overdue = ({ overdue }: { overdue?: boolean }) => (overdue ? <span className="tag tag--alert">{label('overdue', 'true')}</span> : null);

export default function RequestsScreen() {
  const { id } = useParams();
  return id ? (
    <RequestPage id={id} />
  ) : (
    <>
      <p className="muted">{text.requests.recorded}</p>
      <RecordList<RequestItem> kind={RECORD_KINDS.requests} cells={{ overdue: (row) => <Overdue overdue={row.overdue} /> }} />
    </>
  );
}

function RequestPage({ id }: { id: string }) {
  const path = `/requests/${encodeURIComponent(id)}`;
  const detail = useLoad(() => adminCall<RequestDetail>('get', path), path);
  const draft = useDraft<RequestHandleInput>(`request:${id}`);
  const [errors, setErrors] = useState<FieldErrors>();
  const [failure, setFailure] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (detail.loading && !detail.data) return <Loading />;
  if (!detail.data) return <Failure message={detail.error} />;
  const { request, member } = detail.data;
  const submit = async (value: RequestHandleInput) => {
    setBusy(true);
    setFailure(undefined);
    setDone(undefined);
    try {
      const answer = await adminCall<RequestHandled>('post', `${path}/handle`, { body: value });
      setDone(answer.mail.status === 'sent' ? text.requests.handled : text.requests.mailFailed);
      draft.reset();
      detail.reload();
    } catch (thrown) {
      if (thrown instanceof AdminFailure && thrown.fields) setErrors(thrown.fields);
      else setFailure(failureText(thrown));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p>
        <Link to="/requests">{text.requests.backToList}</Link>
      </p>
      <Done message={done} />
      <Failure message={failure} />
      <section className="card">
        <h2>{text.requests.request}</h2>
        {request.overdue && <p className="notice notice--warning">{text.requests.overdueNote}</p>}
        <Facts
          rows={[
            [text.fields.requestKind, label('requestKind', request.kind)],
            [text.fields.status, label('requestStatus', request.status)],
            [text.fields.createdAt, formatDateTime(request.created_at)],
            [text.fields.dueAt, <>{formatDateTime(request.due_at)} <Overdue overdue={request.overdue} /></>],
            ...(request.handled_at ? ([[text.fields.handledAt, formatDateTime(request.handled_at)], [text.fields.handledBy, request.handled_by ?? '']] as Array<[string, string]>) : []),
          ]}
        />
        <h3>{text.fields.text}</h3>
        <p className="pre question">{request.text}</p>
        {request.answer !== null && (
          <>
            <h3>{text.fields.answer}</h3>
            <p className="pre">{request.answer}</p>
          </>
        )}
      </section>
      <section className="card">
        <h2>{text.requests.member}</h2>
        <Facts
          rows={[
            [text.fields.name, <Link to={`/members/${encodeURIComponent(member.id)}`}>{member.name || member.id}</Link>],
            [text.fields.email, member.email],
            [text.fields.memberStatus, label('memberStatus', member.status)],
            ...(member.register_number ? ([[text.fields.registerNumber, member.register_number]] as Array<[string, string]>) : []),
          ]}
        />
      </section>
      {request.status === 'open' && (
        <section className="card">
          <h2>{text.requests.handle}</h2>
          <SchemaForm id="adminRequestHandleForm" form={handleForm} formData={draft.data} onChange={draft.change} serverErrors={errors} busy={busy} onSubmit={(value: RequestHandleInput) => void submit(value)} />
        </section>
      )}
    </>
  );
}
