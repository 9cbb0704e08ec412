// Member login: e-mail and password, then the 5-digit code mailed to the address. A device
// that logged in before (lastLogin cookie) first tries without a code; the server decides.
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import * as loginForm from 'virtual:form/login';
import * as codeForm from 'virtual:form/login-code';
import messages from '../../../messages/ja.json';
import { SchemaForm } from '../../engine/SchemaForm';
import { format } from '../../shared/format';
import type { FieldErrors } from '../../shared/validation/field-errors';
import { ApiFailure } from '../../api/client';
import { login, sendLoginCode, type Credentials } from '../../api/user-auth';
import { verificationMessage } from '../../api/verification';
import { useAlert } from '../../app/alert';
import { hasLastLogin, startSession } from '../../api/session';
import { useCountdown } from '../../app/use-countdown';
import { CodeEntry } from '../../app/CodeEntry';
import { useLoginState } from '../../app/login-state';

const RESEND_LOCK_SECONDS = 30;
const text = messages.login;
const READ_ONLY = { email: { 'ui:readonly': true }, password: { 'ui:readonly': true } };

export default function LoginScreen() {
  const [phase, setPhase] = useState<'credentials' | 'code'>('credentials');
  const [credentials, setCredentials] = useState<Partial<Credentials>>({});
  const [code, setCode] = useState<{ code?: string }>({});
  const [busy, setBusy] = useState(false);
  const [credentialErrors, setCredentialErrors] = useState<FieldErrors>();
  const [codeErrors, setCodeErrors] = useState<FieldErrors>();
  const countdown = useCountdown();
  const alert = useAlert();
  const navigate = useNavigate();
  const { from, notice } = useLoginState();

  const finish = async ({ token, expires_in }: { token?: string; expires_in?: number }) => {
    if (!token) return alert(text.tokenMissing);
    startSession(token, expires_in);
    navigate(from && !from.startsWith('/login') ? from : '/mypage', { replace: true });
  };

  const sendCode = async (body: Credentials) => {
    try {
      await sendLoginCode(body);
      setCode({});
      setCodeErrors(undefined);
      setPhase('code');
      countdown.start(RESEND_LOCK_SECONDS);
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields) return setCredentialErrors(failure.fields);
      const detail = failure instanceof ApiFailure ? failure.message : text.sendFailedUnknown;
      await alert(format(text.sendFailed, { detail }));
    }
  };

  const submitCredentials = async (body: Credentials) => {
    setBusy(true);
    try {
      if (hasLastLogin()) {
        try {
          return await finish(await login(body));
        } catch (failure) {
          if (!(failure instanceof ApiFailure && failure.code === 'CODE_REQUIRED')) return await alert(text.loginFailed);
        }
      }
      await sendCode(body);
    } finally {
      setBusy(false);
    }
  };

  const submitCode = async ({ code: entered }: { code?: string }) => {
    setBusy(true);
    try {
      await finish(await login({ ...(credentials as Credentials), code: entered }));
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.code === 'LOGIN_FAILED') await alert(text.loginFailed);
      else setCodeErrors({ code: [verificationMessage(failure)] });
    } finally {
      setBusy(false);
    }
  };

  const redo = () => {
    setPhase('credentials');
    setCredentials({});
    setCode({});
    setCredentialErrors(undefined);
    setCodeErrors(undefined);
    countdown.reset();
  };

  return (
    <section className="card">
      {notice === 'sessionEnded' && (
        <p className="notice notice--warning" role="status">
          {text.sessionEnded}
        </p>
      )}
      <p className="lead">{text.lead}</p>
      <SchemaForm
        id="loginForm"
        form={loginForm}
        formData={credentials}
        onChange={setCredentials}
        onSubmit={submitCredentials}
        serverErrors={credentialErrors}
        busy={busy}
        uiOverrides={phase === 'code' ? READ_ONLY : undefined}
        actions={phase === 'code' ? <></> : undefined}
      />
      {phase === 'code' && (
        <CodeEntry
          id="loginCodeForm"
          notice={format(text.codeSent, { email: credentials.email ?? '' })}
          form={codeForm}
          formData={code}
          onChange={setCode}
          onSubmit={submitCode}
          serverErrors={codeErrors}
          busy={busy}
          resend={{ remaining: countdown.remaining, onResend: () => void sendCode(credentials as Credentials), label: text.resend, waitingLabel: text.resendIn }}
          redo={{ label: text.redo, onRedo: redo }}
        />
      )}
      <div className="links">
        <Link to="/password_reminder">{text.forgotPassword}</Link>
      </div>
      <div className="register-box">
        <p>{text.registerLead}</p>
        <Link className="button button--secondary" to="/register">
          {text.register}
        </Link>
      </div>
    </section>
  );
}
