// One application in full: every profile field as the member gave it (labels from the schemas,
// given by the API), the purposes, earlier decisions; approve or decline behind a confirmation
// showing the member and the mail; an admin may reverse a decision (back to pending).
import { useState } from 'react';
import { Link } from 'react-router-dom';
import * as decisionForm from 'virtual:form/admin-decision';
import * as reversalForm from 'virtual:form/admin-reversal';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import { format } from '../../../shared/format';
import type { FieldErrors } from '../../../shared/validation/field-errors';
import type { ApplicationDetail as Detail, DecisionInput, DecisionPreview, ReversalInput } from '../../../shared/admin-api';
import { adminCall, AdminFailure } from '../../api';
import { mayOpen } from '../../catalogue';
import { formatDateTime, label } from '../../format';
import { useSession } from '../../session';
import { ConfirmDialog, Done, Facts, Failure, failureText, Loading, MailPreview, useDraft, useLoad } from '../../ui';

export function ApplicationDetail({ registerNumber }: { registerNumber: string }) {
  const { operator } = useSession();
  const path = `/applications/${encodeURIComponent(registerNumber)}`;
  const detail = useLoad(() => adminCall<Detail>('get', path), path);
  const decision = useDraft<DecisionInput>(`decision:${registerNumber}`);
  const reversal = useDraft<ReversalInput>(`reversal:${registerNumber}`);
  const [preview, setPreview] = useState<DecisionPreview & { body: DecisionInput }>();
  const [confirmReversal, setConfirmReversal] = useState<ReversalInput>();
  const [errors, setErrors] = useState<FieldErrors>();
  const [failure, setFailure] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>, fields?: (f: FieldErrors) => void) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await action();
    } catch (thrown) {
      if (thrown instanceof AdminFailure && thrown.fields && fields) fields(thrown.fields);
      else setFailure(failureText(thrown));
      setPreview(undefined);
      setConfirmReversal(undefined);
    } finally {
      setBusy(false);
    }
  };
  if (detail.loading && !detail.data) return <Loading />;
  if (!detail.data) return <Failure message={detail.error} />;
  const { application, member, purposes, decisions } = detail.data;
  const pending = application.status === 'pending';
  const mayReverse = !!operator && operator.role === 'admin' && !pending && mayOpen(operator.role, 'applications');

  return (
    <>
      <p>
        <Link to="/applications">{text.applications.backToList}</Link>
      </p>
      <Done message={done} />
      <Failure message={failure} />
      <section className="card">
        <h2>{text.applications.summary}</h2>
        <Facts
          rows={[
            [text.fields.registerNumber, application.register_number],
            [text.fields.status, label('applicationStatus', application.status)],
            [text.fields.appliedAt, formatDateTime(application.applied_at)],
            [text.fields.decidedAt, formatDateTime(application.decided_at)],
            [text.fields.email, member.email],
            [text.fields.memberStatus, label('memberStatus', member.status)],
          ]}
        />
        <p>
          <Link to={`/members/${encodeURIComponent(member.id)}`}>{text.applications.toMember}</Link>
        </p>
      </section>
      <section className="card">
        <h2>{text.applications.profile}</h2>
        <Facts rows={member.fields.map((field) => [field.label, field.display])} />
      </section>
      <section className="card">
        <h2>{text.applications.purposes}</h2>
        {purposes.length ? (
          <ul>
            {purposes.map((purpose, i) => (
              <li key={i}>{purpose.label}</li>
            ))}
          </ul>
        ) : (
          <p>{text.common.none}</p>
        )}
      </section>
      <section className="card">
        <h2>{text.applications.history}</h2>
        {decisions.length ? (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{text.fields.at}</th>
                <th scope="col">{text.fields.decision}</th>
                <th scope="col">{text.fields.reason}</th>
                <th scope="col">{text.fields.operator}</th>
              </tr>
            </thead>
            <tbody>
              {decisions.map((d, i) => (
                <tr key={i}>
                  <td>{formatDateTime(d.at)}</td>
                  <td>
                    {label('decision', d.decision)}
                    {d.reversed_by ? <span className="tag">{text.applications.reversed}</span> : null}
                  </td>
                  <td className="pre">{d.reason}</td>
                  <td>{d.operator}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>{text.applications.noHistory}</p>
        )}
      </section>
      {pending && member.status !== 'withdrawn' && (
        <section className="card">
          <h2>{text.applications.decide}</h2>
          <SchemaForm
            id="adminDecisionForm"
            form={decisionForm}
            formData={decision.data}
            onChange={decision.change}
            serverErrors={errors}
            busy={busy}
            onSubmit={(value: DecisionInput) =>
              run(async () => {
                const answer = await adminCall<DecisionPreview>('post', `${path}/preview`, { body: value });
                setPreview({ ...answer, body: value });
              }, setErrors)
            }
          />
        </section>
      )}
      {pending && member.status === 'withdrawn' && <p className="notice notice--warning">{text.applications.withdrawn}</p>}
      {mayReverse && (
        <section className="card">
          <h2>{text.applications.reverse}</h2>
          <p>{text.applications.reverseLead}</p>
          <SchemaForm id="adminReversalForm" form={reversalForm} formData={reversal.data} onChange={reversal.change} busy={busy} serverErrors={errors} onSubmit={(value: ReversalInput) => setConfirmReversal(value)} />
        </section>
      )}
      <ConfirmDialog
        open={!!preview}
        title={preview?.body.decision === 'declined' ? text.applications.confirmDecline : text.applications.confirmApprove}
        confirmLabel={preview?.body.decision === 'declined' ? text.applications.doDecline : text.applications.doApprove}
        danger={preview?.body.decision === 'declined'}
        busy={busy}
        onCancel={() => setPreview(undefined)}
        onConfirm={() =>
          run(async () => {
            await adminCall('post', `${path}/decision`, { body: preview!.body });
            setDone(preview!.body.decision === 'declined' ? text.applications.declined : text.applications.approved);
            setPreview(undefined);
            decision.reset();
            detail.reload();
          }, setErrors)
        }
      >
        {preview && (
          <>
            <p>{format(text.applications.confirmMember, { name: preview.member.name, email: preview.member.email, number: registerNumber })}</p>
            <p>{text.applications.confirmMail}</p>
            <MailPreview mail={preview.mail} />
          </>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={!!confirmReversal}
        title={text.applications.confirmReverse}
        confirmLabel={text.applications.doReverse}
        danger
        busy={busy}
        onCancel={() => setConfirmReversal(undefined)}
        onConfirm={() =>
          run(async () => {
            await adminCall('post', `${path}/reversal`, { body: confirmReversal });
            setDone(text.applications.reverseDone);
            setConfirmReversal(undefined);
            reversal.reset();
            detail.reload();
          }, setErrors)
        }
      >
        <p>{format(text.applications.reverseWhat, { number: registerNumber, status: label('applicationStatus', application.status) })}</p>
        <p className="pre">{confirmReversal?.reason}</p>
      </ConfirmDialog>
    </>
  );
}
