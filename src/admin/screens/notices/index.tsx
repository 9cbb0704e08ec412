// Notices: those sent and scheduled (retract one), and at notices/new a notice to one member or
// to all, with a preview as on my page and the number of recipients before it is sent.
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import * as noticeForm from 'virtual:form/admin-notice';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import { format } from '../../../shared/format';
import type { FieldErrors } from '../../../shared/validation/field-errors';
import type { NoticeInput, NoticeItem, NoticePreview } from '../../../shared/admin-api';
import { adminCall, AdminFailure } from '../../api';
import { formatDateTime, japanLocalToIso } from '../../format';
import { RECORD_KINDS } from '../../records/kinds';
import { RecordList } from '../../records/RecordList';
import { ConfirmDialog, Done, Failure, failureText, useDraft } from '../../ui';

export default function NoticesScreen() {
  const { pathname } = useLocation();
  return /\/notices\/new\/?$/.test(pathname) ? <NewNotice /> : <NoticeList />;
}

function NoticeList() {
  const [round, setRound] = useState(0);
  const [retracting, setRetracting] = useState<NoticeItem>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [done, setDone] = useState<string>();
  return (
    <>
      <p>
        <Link className="button button--primary" to="/notices/new">
          {text.notices.new}
        </Link>
      </p>
      <Done message={done} />
      <Failure message={failure} />
      <RecordList<NoticeItem>
        kind={RECORD_KINDS.notices}
        round={round}
        cells={{
          audience: (row) => (row.audience === 'all' ? text.notices.toAll : format(text.notices.toOne, { name: row.member_name ?? '', number: row.register_number ?? '' })),
          message: (row) => <span className="pre">{row.message}</span>,
        }}
        extraColumns={[
          {
            header: text.common.actions,
            cell: (row) =>
              row.status !== 'retracted' && (
                <button type="button" className="button button--small" onClick={() => setRetracting(row)}>
                  {text.notices.retract}
                </button>
              ),
          },
        ]}
      />
      <ConfirmDialog
        open={!!retracting}
        title={text.notices.confirmRetract}
        confirmLabel={text.notices.doRetract}
        danger
        busy={busy}
        onCancel={() => setRetracting(undefined)}
        onConfirm={async () => {
          setBusy(true);
          setFailure(undefined);
          try {
            await adminCall('post', `/notices/${encodeURIComponent(retracting!.id)}/retract`);
            setDone(text.notices.retracted);
            setRound((n) => n + 1);
          } catch (thrown) {
            setFailure(failureText(thrown));
          } finally {
            setBusy(false);
            setRetracting(undefined);
          }
        }}
      >
        <p>{text.notices.retractLead}</p>
        <p className="pre">{retracting?.message}</p>
      </ConfirmDialog>
    </>
  );
}

function NewNotice() {
  const draft = useDraft<NoticeInput>('notice', { audience: 'one' });
  const [preview, setPreview] = useState<NoticePreview & { body: NoticeInput }>();
  const [errors, setErrors] = useState<FieldErrors>();
  const [failure, setFailure] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  const payload = (value: NoticeInput) => ({ ...value, publish_at: japanLocalToIso(value.publish_at), register_number: value.audience === 'one' ? value.register_number : undefined });
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await action();
    } catch (thrown) {
      if (thrown instanceof AdminFailure && thrown.fields) setErrors(thrown.fields);
      else setFailure(failureText(thrown));
      setPreview(undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p>
        <Link to="/notices">{text.notices.backToList}</Link>
      </p>
      <Done message={done} />
      <Failure message={failure} />
      <section className="card">
        <SchemaForm
          id="adminNoticeForm"
          form={noticeForm}
          formData={draft.data}
          onChange={draft.change}
          serverErrors={errors}
          busy={busy}
          onSubmit={(value: NoticeInput) =>
            run(async () => {
              const body = payload(value);
              const answer = await adminCall<NoticePreview>('post', '/notices/preview', { body });
              setPreview({ ...answer, body });
            })
          }
        />
      </section>
      <ConfirmDialog
        open={!!preview}
        title={text.notices.confirm}
        confirmLabel={preview?.body.publish_at ? text.notices.doSchedule : text.notices.doSend}
        busy={busy}
        onCancel={() => setPreview(undefined)}
        onConfirm={() =>
          run(async () => {
            await adminCall('post', '/notices', { body: preview!.body });
            setDone(preview!.body.publish_at ? text.notices.scheduled : text.notices.sent);
            setPreview(undefined);
            draft.reset();
          })
        }
      >
        {preview && (
          <>
            <p className="confirm-count">{format(text.notices.recipients, { count: preview.recipients.toLocaleString('ja-JP') })}</p>
            {preview.member && <p>{format(text.notices.member, { name: preview.member.name, email: preview.member.email })}</p>}
            <p>{preview.body.publish_at ? format(text.notices.publishAt, { at: formatDateTime(preview.body.publish_at) }) : text.notices.publishNow}</p>
            <p>{text.notices.asOnMyPage}</p>
            <ul className="notices mypage-preview">
              <li>
                <span className="notices__date">{formatDateTime(preview.body.publish_at ?? new Date().toISOString())}</span>
                <p className="notices__message">{preview.message}</p>
              </li>
            </ul>
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
