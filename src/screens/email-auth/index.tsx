// E-mail authentication of the earlier generation: one address, checked by the old screen's own
// rule, receives a link to the old registration screen. A failed request is logged, as the
// specification says, and the member is also told it did not go (docs/decisions/006).
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import * as emailAuthForm from 'virtual:form/email-auth';
import messages from '../../../messages/ja.json';
import { SchemaForm } from '../../engine/SchemaForm';
import { LiveStatus } from '../../engine/LiveStatus';
import { format } from '../../shared/format';
import type { FieldErrors } from '../../shared/validation/field-errors';
import { ApiFailure } from '../../api/client';
import { requestRegistrationLink } from '../../api/old-flow';
import { useAlert } from '../../app/alert';

const text = messages.emailAuth;
/** Set by the old registration screen when its link did not hold. */
function noticeOf(state: unknown): string | undefined {
  const notice = (state as { notice?: string } | null)?.notice;
  return notice === 'linkInvalid' || notice === 'linkUnchecked' ? text[notice] : undefined;
}

export default function EmailAuthScreen() {
  const [data, setData] = useState<{ email?: string }>({});
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>();
  const [failure, setFailure] = useState<string>();
  const alert = useAlert();
  const notice = noticeOf(useLocation().state);

  const submit = async ({ email }: { email: string }) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await requestRegistrationLink(email);
      await alert(text.sent);
    } catch (error) {
      console.warn('registration link request failed', error);
      if (error instanceof ApiFailure && error.fields) setFieldErrors(error.fields);
      const detail = error instanceof ApiFailure && error.status > 0 ? error.message : text.sendFailedUnknown;
      setFailure(format(text.sendFailed, { detail }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card">
      {notice && (
        <LiveStatus className="notice notice--warning" lines={[notice]} />
      )}
      <p className="lead">{text.lead}</p>
      <SchemaForm id="emailAuthForm" form={emailAuthForm} formData={data} onChange={setData} onSubmit={submit} serverErrors={fieldErrors} busy={busy}>
        {failure && (
          <p className="notice notice--error" role="alert">
            {failure}
          </p>
        )}
      </SchemaForm>
    </section>
  );
}
