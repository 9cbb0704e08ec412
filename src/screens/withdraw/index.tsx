// Withdrawal: what it means, the password, an optional reason. On success a dialog thanks the
// member. The session on this device (token, cookies, session storage) is cleared as soon as
// the server confirms, before the dialog (spec section 4); behind the dialog the frame shows
// withdraw_complete, the completion message (ADR 009); OK then goes to the site top.
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import * as withdrawForm from 'virtual:form/withdraw';
import messages from '../../../messages/ja.json';
import { SchemaForm } from '../../engine/SchemaForm';
import { format } from '../../shared/format';
import type { FieldErrors } from '../../shared/validation/field-errors';
import { ApiFailure } from '../../api/client';
import { withdraw } from '../../api/account';
import { useAlert } from '../../app/alert';
import { endSession, token } from '../../api/session';
import { navigateTop } from '../../app/frame';
import { settings } from '../../api/settings';
import { paths } from '../../app/paths.generated';
import { WITHDRAWN_STATE } from '../../app/withdrawn';

const text = messages.withdraw;

export default function WithdrawScreen() {
  const [data, setData] = useState<{ password?: string; reason?: string }>({});
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>();
  const alert = useAlert();
  const navigate = useNavigate();

  const submit = async ({ password, reason }: { password: string; reason?: string }) => {
    if (!token()) return alert(text.loginRequired);
    setBusy(true);
    try {
      await withdraw(password, reason ?? '');
    } catch (failure) {
      setBusy(false);
      // A wrong password is the password field's error, shown there once (not also in a dialog).
      if (failure instanceof ApiFailure && failure.fields) return setServerErrors(failure.fields);
      if (failure instanceof ApiFailure && failure.status > 0) return alert(failure.message || format(text.failed, { status: failure.status }));
      return alert(failure instanceof Error && failure.message ? failure.message : text.error);
    }
    endSession({ clearSessionStorage: true });
    navigate(paths.withdrawComplete, { replace: true, state: WITHDRAWN_STATE });
    // The dialog opens once the new screen has taken focus to its title, so focus stays in it.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await alert(text.doneBody, { title: text.doneTitle });
    navigateTop(settings().siteTopUrl);
  };

  return (
    <section className="card">
      <div className="notice notice--warning">
        <h2 className="card__title">{text.notesTitle}</h2>
        <ul>
          {text.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      </div>
      <p className="lead">{text.lead}</p>
      <SchemaForm
        id="withdrawForm"
        form={withdrawForm}
        formData={data}
        onChange={setData}
        onSubmit={submit}
        serverErrors={serverErrors}
        actions={
          <div className="actions">
            <button type="submit" className="button button--danger" disabled={busy}>
              {busy ? text.processing : text.submit}
            </button>
          </div>
        }
      />
    </section>
  );
}
