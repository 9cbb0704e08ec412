// E-mail change: the current address (read-only), the new one, a code mailed to the new
// address, confirm. Resend is locked for 30 seconds; "redo" returns to the address entry.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import * as addressForm from 'virtual:form/email-change';
import * as codeForm from 'virtual:form/email-change-code';
import messages from '../../../messages/ja.json';
import { SchemaForm, isFormValid } from '../../engine/SchemaForm';
import { format } from '../../shared/format';
import type { FieldErrors } from '../../shared/validation/field-errors';
import { ApiFailure } from '../../api/client';
import { getUserInfo } from '../../api/user-info';
import { confirmEmailChange, sendEmailChangeCode } from '../../api/account';
import { verificationMessage } from '../../api/verification';
import { useAlert } from '../../app/alert';
import { token } from '../../api/session';
import { useCountdown } from '../../app/use-countdown';
import { CodeEntry } from '../../app/CodeEntry';

const RESEND_LOCK_SECONDS = 30;
const text = messages.emailChange;
const READ_ONLY = { email: { 'ui:readonly': true } };

export default function EmailChangeScreen() {
  const [address, setAddress] = useState<{ current_email?: string; email?: string }>({});
  const [loaded, setLoaded] = useState(false);
  const [phase, setPhase] = useState<'input' | 'sent'>('input');
  const [code, setCode] = useState<{ code?: string }>({});
  const [busy, setBusy] = useState(false);
  const [addressErrors, setAddressErrors] = useState<FieldErrors>();
  const [codeErrors, setCodeErrors] = useState<FieldErrors>();
  const countdown = useCountdown();
  const alert = useAlert();
  const navigate = useNavigate();

  useEffect(() => {
    getUserInfo().then(
      (user) => {
        setAddress({ current_email: user.email });
        setLoaded(true);
      },
      (failure) => {
        console.error('user info failed', failure);
        setLoaded(true);
      },
    );
  }, []);

  const send = async () => {
    if (!token()) return alert(text.loginRequired);
    setBusy(true);
    try {
      await sendEmailChangeCode(address.email!);
      setCode({});
      setCodeErrors(undefined);
      setPhase('sent');
      countdown.start(RESEND_LOCK_SECONDS);
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields) setAddressErrors(failure.fields);
      else await alert(format(text.sendFailed, { detail: failure instanceof ApiFailure ? failure.message : messages.client.unknown }));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async ({ code: entered }: { code: string }) => {
    if (!token()) return alert(text.loginRequired);
    setBusy(true);
    try {
      await confirmEmailChange(address.email!, entered);
      await alert(text.done);
      navigate('/mypage');
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.status > 0 && failure.code !== 'EMAIL_TAKEN') setCodeErrors({ code: [verificationMessage(failure)] });
      else await alert(format(text.failed, { detail: failure instanceof Error ? failure.message : messages.client.unknown }));
    } finally {
      setBusy(false);
    }
  };

  const redo = () => {
    setPhase('input');
    setCode({});
    setCodeErrors(undefined);
    setAddress((prev) => ({ current_email: prev.current_email }));
    countdown.reset();
  };

  if (!loaded) return <p className="loading">{text.loading}</p>;
  const canSend = !!address.email && isFormValid(addressForm, address);
  return (
    <section className="card">
      <p className="lead">{text.lead}</p>
      <SchemaForm
        id="emailChangeForm"
        form={addressForm}
        formData={address}
        onChange={setAddress}
        onSubmit={send}
        serverErrors={addressErrors}
        busy={busy}
        uiOverrides={phase === 'sent' ? READ_ONLY : undefined}
        actions={
          phase === 'input' ? (
            <div className="actions">
              <button type="submit" className="button button--primary" disabled={!canSend || busy}>
                {busy ? messages.form.busy : (addressForm.uiSchema['ui:submitButtonOptions'] as { submitText: string }).submitText}
              </button>
            </div>
          ) : (
            <></>
          )
        }
      />
      {phase === 'sent' && (
        <CodeEntry
          id="emailChangeCodeForm"
          notice={format(text.codeSent, { email: address.email ?? '' })}
          form={codeForm}
          formData={code}
          onChange={setCode}
          onSubmit={confirm}
          serverErrors={codeErrors}
          busy={busy}
          resend={{ remaining: countdown.remaining, onResend: () => void send(), label: text.resend, waitingLabel: text.resendIn }}
          redo={{ label: text.redo, onRedo: redo }}
        />
      )}
    </section>
  );
}
