// Operator login: e-mail and password, then the 5-digit code mailed every time (the member
// site's code boxes). Afterwards the operator goes back to where they were. The 'forgot your password' link
// leads to the password reset (screens/password-reset).
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import * as loginForm from 'virtual:form/admin-login';
import * as codeForm from 'virtual:form/admin-login-code';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import { format } from '../../../shared/format';
import type { FieldErrors } from '../../../shared/validation/field-errors';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { LoginInput, LoginStarted, SessionAnswer } from '../../../shared/admin-api';
import { adminCall, AdminFailure } from '../../api';
import { useSession, type LoginState } from '../../session';
import { clearDrafts, Failure, failureText, useDraft } from '../../ui';
import { LiveStatus } from '../../../engine/LiveStatus';

export default function LoginScreen() {
  const { start, ended, operator } = useSession();
  const navigate = useNavigate();
  const from = (useLocation().state as LoginState | null)?.from;
  const credentials = useDraft<LoginInput>('login');
  const [code, setCode] = useState<{ code?: string }>({});
  const [flow, setFlow] = useState<string>();
  /** The operator has a passkey: offered beside the code box (docs/decisions/031). */
  const [passkey, setPasskey] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>();
  const [codeErrors, setCodeErrors] = useState<FieldErrors>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  // The password step done, its fields are read-only: focus moves on to the code's first box
  // (a new flow each time the password is sent again).
  useEffect(() => {
    if (flow) document.querySelector<HTMLInputElement>('#adminLoginCodeForm input:not([readonly]):not([disabled])')?.focus();
  }, [flow]);

  const run = async (action: () => Promise<void>, fields: (f: FieldErrors) => void) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await action();
    } catch (thrown) {
      if (thrown instanceof AdminFailure && thrown.fields) fields(thrown.fields);
      else setFailure(failureText(thrown));
    } finally {
      setBusy(false);
    }
  };
  const send = (value: LoginInput) =>
    run(async () => {
      const answer = await adminCall<LoginStarted>('post', '/login', { body: value });
      setCode({});
      setFlow(answer.flow);
      setPasskey(answer.passkey && typeof window.PublicKeyCredential === 'function');
    }, setErrors);
  const opened = (answer: SessionAnswer) => {
    clearDrafts(answer.operator.id);
    start(answer);
    credentials.reset();
    navigate(from && from !== '/login' ? from : '/', { replace: true });
  };
  const verify = (value: { code: string }) => run(async () => opened(await adminCall<SessionAnswer>('post', '/login/code', { body: { flow, code: value.code } })), setCodeErrors);
  const withPasskey = () =>
    run(async () => {
      const [{ startAuthentication }, optionsJSON] = await Promise.all([import('@simplewebauthn/browser'), adminCall<PublicKeyCredentialRequestOptionsJSON>('post', '/login/passkey/options', { body: { flow } })]);
      let response;
      try {
        response = await startAuthentication({ optionsJSON });
      } catch {
        throw new AdminFailure(text.account.failed, 400);
      }
      opened(await adminCall<SessionAnswer>('post', '/login/passkey', { body: { flow, response } }));
    }, setCodeErrors);

  return (
    <section className="card card--narrow">
      {ended && (
        <LiveStatus className="notice notice--warning" lines={[text.login.ended]} />
      )}
      {operator && !flow && <p className="notice notice--info">{format(text.login.already, { name: operator.name })}</p>}
      <Failure message={failure} />
      <SchemaForm
        id="adminLoginForm"
        form={loginForm}
        formData={credentials.data}
        onChange={credentials.change}
        onSubmit={send}
        serverErrors={errors}
        busy={busy}
        uiOverrides={flow ? { email: { 'ui:readonly': true }, password: { 'ui:readonly': true } } : undefined}
        actions={flow ? <></> : undefined}
      />
      {flow && (
        <>
          <LiveStatus className="notice notice--info" lines={[format(text.login.codeSent, { email: credentials.data.email ?? '' })]} />
          <SchemaForm id="adminLoginCodeForm" form={codeForm} formData={code} onChange={setCode} onSubmit={verify} serverErrors={codeErrors} busy={busy} />
          {passkey && (
            <div className="passkey-step">
              <p>{text.login.passkeyOr}</p>
              <button type="button" className="button button--primary" disabled={busy} onClick={() => void withPasskey()}>
                {text.login.passkey}
              </button>
            </div>
          )}
          <div className="actions actions--secondary">
            <button type="button" className="button" disabled={busy} onClick={() => setFlow(undefined)}>
              {text.login.redo}
            </button>
          </div>
        </>
      )}
      {!flow && (
        <p>
          <Link to="/password-reset">{text.login.forgot}</Link>
        </p>
      )}
    </section>
  );
}
