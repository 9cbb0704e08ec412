// One inquiry's thread, with the office's actions on it.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import * as answerForm from 'virtual:form/admin-answer';
import * as correctionForm from 'virtual:form/admin-correction';
import * as assignForm from 'virtual:form/admin-assign';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import { format } from '../../../shared/format';
import type { FieldErrors } from '../../../shared/validation/field-errors';
import type { AnswerInput, AnswerItem, AnswerPreview, AssignableOperators, AssignInput, CorrectionInput, InquiryDetail } from '../../../shared/admin-api';
import { adminCall, AdminFailure } from '../../api';
import { formatDateTime, label } from '../../format';
import { useSession } from '../../session';
import { ConfirmDialog, Done, Facts, Failure, failureText, Loading, MailPreview, useDraft, useLoad } from '../../ui';

export function InquiryThread({ id }: { id: string }) {
  const { operator } = useSession();
  const path = `/inquiries/${encodeURIComponent(id)}`;
  const thread = useLoad(() => adminCall<InquiryDetail>('get', path), path);
  const operators = useLoad(
    () =>
      // the active operators an inquiry can go to (admin and secretariat), as the server lists them
      adminCall<AssignableOperators>('get', '/inquiries/operators')
        .then((answer) => answer.items)
        .catch(() => (operator ? [operator] : [])),
    operator?.id ?? '',
  );
  const answer = useDraft<AnswerInput>(`answer:${id}`);
  const correction = useDraft<CorrectionInput>(`correction:${id}`);
  const [assign, setAssign] = useState<Partial<AssignInput>>({});
  const [correcting, setCorrecting] = useState<AnswerItem>();
  // The mail an answer or a correction will send, shown for confirmation before it goes.
  const [preview, setPreview] = useState<AnswerPreview & ({ kind: 'answer'; body: AnswerInput } | { kind: 'correction'; body: CorrectionInput; answerId: string })>();
  const [errors, setErrors] = useState<Record<string, FieldErrors | undefined>>({});
  const [failure, setFailure] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (form: string, action: () => Promise<void>) => {
    setBusy(true);
    setFailure(undefined);
    setDone(undefined);
    try {
      await action();
    } catch (thrown) {
      if (thrown instanceof AdminFailure && thrown.fields) setErrors({ [form]: thrown.fields });
      else setFailure(failureText(thrown));
      setPreview(undefined);
    } finally {
      setBusy(false);
    }
  };
  if (thread.loading && !thread.data) return <Loading />;
  if (!thread.data) return <Failure message={thread.error} />;
  const { inquiry, answers, mails } = thread.data;
  const closed = inquiry.status === 'closed';
  // Only an open inquiry takes an answer (the server refuses a second one): a sent answer is
  // corrected instead.
  const open = inquiry.status === 'open';

  return (
    <>
      <p>
        <Link to="/inquiries">{text.inquiries.backToList}</Link>
      </p>
      <Done message={done} />
      <Failure message={failure} />
      <section className="card">
        <h2>{text.inquiries.question}</h2>
        <Facts
          rows={[
            [text.fields.ticket, inquiry.ticket_no],
            [text.fields.status, label('inquiryStatus', inquiry.status)],
            [text.fields.createdAt, formatDateTime(inquiry.created_at)],
            [text.fields.name, inquiry.name],
            [text.fields.email, inquiry.email],
            [text.fields.inquiryType, inquiry.inquiry_type_label],
            [text.fields.assignedTo, inquiry.assigned_to?.name ?? text.inquiries.unassigned],
          ]}
        />
        <p className="pre question">{inquiry.content}</p>
      </section>
      <section className="card">
        <h2>{text.inquiries.answers}</h2>
        {answers.length === 0 && <p>{text.inquiries.noAnswers}</p>}
        <ol className="thread">
          {answers.map((a) => (
            <li key={a.id} className="thread__item">
              <p className="muted">
                {format(text.inquiries.answeredBy, { at: formatDateTime(a.at), name: a.operator })}
                {a.corrects && <span className="tag">{text.inquiries.correctionBadge}</span>}
                {a.mail_status && <span className="tag">{label('mailStatus', a.mail_status)}</span>}
              </p>
              <p className="pre">{a.answer}</p>
              {a.note && <p className="muted">{format(text.inquiries.correctionNote, { note: a.note })}</p>}
              {!closed && (
                <button type="button" className="button button--small" onClick={() => setCorrecting(a)}>
                  {text.inquiries.correct}
                </button>
              )}
            </li>
          ))}
        </ol>
      </section>
      {correcting && (
        <section className="card">
          <h2>{text.inquiries.correctTitle}</h2>
          <p className="muted pre">{correcting.answer}</p>
          <SchemaForm
            id="adminCorrectionForm"
            form={correctionForm}
            formData={correction.data}
            onChange={correction.change}
            serverErrors={errors.correction}
            busy={busy}
            onSubmit={(value: CorrectionInput) =>
              run('correction', async () => {
                const result = await adminCall<AnswerPreview>('post', `${path}/answers/${encodeURIComponent(correcting.id)}/correction/preview`, { body: value });
                setPreview({ kind: 'correction', mail: result.mail, body: value, answerId: correcting.id });
              })
            }
          />
          <button type="button" className="button" onClick={() => setCorrecting(undefined)}>
            {text.common.cancel}
          </button>
        </section>
      )}
      {open && !correcting && (
        <section className="card">
          <h2>{text.inquiries.answer}</h2>
          <SchemaForm
            id="adminAnswerForm"
            form={answerForm}
            formData={answer.data}
            onChange={answer.change}
            serverErrors={errors.answer}
            busy={busy}
            onSubmit={(value: AnswerInput) =>
              run('answer', async () => {
                const result = await adminCall<AnswerPreview>('post', `${path}/answer/preview`, { body: value });
                setPreview({ kind: 'answer', mail: result.mail, body: value });
              })
            }
          />
        </section>
      )}
      <section className="card">
        <h2>{text.inquiries.mails}</h2>
        {mails.length === 0 ? (
          <p>{text.common.none}</p>
        ) : (
          <ul>
            {mails.map((m, i) => (
              <li key={i}>
                {formatDateTime(m.created_at)} {m.subject} {format(text.common.noted, { text: '', note: label('mailStatus', m.status) })}
              </li>
            ))}
          </ul>
        )}
      </section>
      {!closed && (
        <section className="card">
          <h2>{text.inquiries.assign}</h2>
          <SchemaForm
            id="adminAssignForm"
            form={assignForm}
            formData={assign}
            onChange={setAssign}
            masters={{ adminOperators: (operators.data ?? []).map((o) => ({ value: o.id, label: format(text.common.noted, { text: o.name, note: label('roles', o.role) }) })) }}
            serverErrors={errors.assign}
            busy={busy}
            onSubmit={(value: AssignInput) =>
              run('assign', async () => {
                await adminCall('post', `${path}/assign`, { body: value });
                setDone(text.inquiries.assigned);
                thread.reload();
              })
            }
          />
        </section>
      )}
      {!closed && (
        <section className="card">
          <h2>{text.inquiries.done}</h2>
          <p>{text.inquiries.doneLead}</p>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() =>
              void run('done', async () => {
                await adminCall('post', `${path}/done`);
                setDone(text.inquiries.doneDone);
                thread.reload();
              })
            }
          >
            {text.inquiries.markDone}
          </button>
        </section>
      )}
      <ConfirmDialog
        open={!!preview}
        title={preview?.kind === 'correction' ? text.inquiries.confirmCorrection : text.inquiries.confirmAnswer}
        confirmLabel={preview?.kind === 'correction' ? text.inquiries.doCorrect : text.inquiries.doAnswer}
        busy={busy}
        onCancel={() => setPreview(undefined)}
        onConfirm={() => {
          const sending = preview!;
          if (sending.kind === 'correction') {
            void run('correction', async () => {
              await adminCall('post', `${path}/answers/${encodeURIComponent(sending.answerId)}/correction`, { body: sending.body });
              setDone(text.inquiries.corrected);
              setPreview(undefined);
              setCorrecting(undefined);
              correction.reset();
              thread.reload();
            });
            return;
          }
          void run('answer', async () => {
            await adminCall('post', `${path}/answer`, { body: sending.body });
            setDone(text.inquiries.answered);
            setPreview(undefined);
            answer.reset();
            thread.reload();
          });
        }}
      >
        {preview && <MailPreview mail={preview.mail} />}
      </ConfirmDialog>
    </>
  );
}
