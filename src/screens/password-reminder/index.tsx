// Password reminder: identity (e-mail, birthday, phone) → the mailed code and a new password →
// done. Resend is locked for 60 seconds; "start over" resets everything.
import { useState } from 'react';
import * as identityForm from 'virtual:form/reset-identity';
import * as passwordForm from 'virtual:form/reset-password';
import messages from '../../../messages/ja.json';
import { SchemaForm } from '../../engine/SchemaForm';
import { format } from '../../shared/format';
import type { FieldErrors } from '../../shared/validation/field-errors';
import { ApiFailure } from '../../api/client';
import { sendResetCode, setPassword, type Identity } from '../../api/password-reset';
import { verificationMessage } from '../../api/verification';
import { useAlert } from '../../app/alert';
import { useCountdown } from '../../app/use-countdown';
import { CodeEntry } from '../../app/CodeEntry';
import { navigateTop } from '../../app/frame';
import { settings } from '../../api/settings';

const text = messages.passwordReminder;
const RESEND_LOCK_SECONDS = 60;
const CODE_ERRORS = new Set(['CODE_INVALID', 'CODE_LOCKED', 'CODE_RATE_LIMITED']);
const READ_ONLY = { email: { 'ui:readonly': true }, birthday: { 'ui:readonly': true }, phone: { 'ui:readonly': true } };

interface NewPassword {
  email: string;
  code: string;
  new_password: string;
  new_password_confirm: string;
}

export default function PasswordReminderScreen() {
  const [phase, setPhase] = useState<'identity' | 'reset' | 'done'>('identity');
  const [identity, setIdentity] = useState<Partial<Identity>>({});
  const [reset, setReset] = useState<Partial<NewPassword>>({});
  const [busy, setBusy] = useState(false);
  const [identityErrors, setIdentityErrors] = useState<FieldErrors>();
  const [resetErrors, setResetErrors] = useState<FieldErrors>();
  const countdown = useCountdown();
  const alert = useAlert();

  const requestCode = async (who: Identity) => {
    setBusy(true);
    try {
      await sendResetCode(who);
      setReset({ email: who.email });
      setResetErrors(undefined);
      setPhase('reset');
      countdown.start(RESEND_LOCK_SECONDS);
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields) setIdentityErrors(failure.fields);
      await alert(failure instanceof ApiFailure && failure.message ? failure.message : text.identityFailed);
    } finally {
      setBusy(false);
    }
  };

  const submitPassword = async ({ email, code, new_password: password }: NewPassword) => {
    setBusy(true);
    try {
      await setPassword(email, code, password);
      setPhase('done');
    } catch (failure) {
      if (!(failure instanceof ApiFailure) || failure.isNetwork || failure.isTimeout) return await alert(text.network);
      if (CODE_ERRORS.has(failure.code ?? '')) setResetErrors({ code: [verificationMessage(failure)] });
      else if (failure.fields) setResetErrors(failure.fields);
      else await alert(failure.message || text.failed);
    } finally {
      setBusy(false);
    }
  };

  const startOver = () => {
    setPhase('identity');
    setIdentity({});
    setReset({});
    setIdentityErrors(undefined);
    setResetErrors(undefined);
    countdown.reset();
  };

  if (phase === 'done') {
    return (
      <section className="card">
        <h2 className="card__title">{text.doneTitle}</h2>
        <p>{text.doneBody}</p>
        <button type="button" className="button button--primary" onClick={() => navigateTop('/mypage')}>
          {text.toLogin}
        </button>
      </section>
    );
  }

  return (
    <section className="card">
      <p className="lead">{text.lead}</p>
      <SchemaForm
        id="resetIdentityForm"
        form={identityForm}
        formData={identity}
        onChange={setIdentity}
        onSubmit={requestCode}
        serverErrors={identityErrors}
        busy={busy}
        uiOverrides={phase === 'reset' ? READ_ONLY : undefined}
        actions={phase === 'reset' ? <></> : undefined}
      />
      {phase === 'reset' && (
        <CodeEntry
          id="resetPasswordForm"
          notice={format(text.codeSent, { email: identity.email ?? '' })}
          form={passwordForm}
          formData={reset}
          onChange={setReset}
          onSubmit={submitPassword}
          serverErrors={resetErrors}
          busy={busy}
          resend={{ remaining: countdown.remaining, onResend: () => void requestCode(identity as Identity), label: text.resend, waitingLabel: text.resendIn }}
          redo={{ label: text.startOver, onRedo: startOver }}
        />
      )}
      <p className="field__help domain-note">{format(text.domainNote, { domain: settings().mailDomain })}</p>
    </section>
  );
}
