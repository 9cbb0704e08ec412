// Member login: e-mail and password, then the 5-digit code mailed to the address. A device
// that logged in before (lastLogin cookie) first tries without a code; the server decides.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Link } from '../../app/Link';
import * as loginForm from 'virtual:form/login';
import messages from '../../../messages/ja.json';
import { SchemaForm } from '../../engine/SchemaForm';
import { LiveStatus } from '../../engine/LiveStatus';
import { format } from '../../shared/format';
import { ApiFailure } from '../../api/client';
import { login, sendLoginCode, type Credentials } from '../../api/user-auth';
import { verificationMessage } from '../../api/verification';
import { useAlert } from '../../app/alert';
import { hasLastLogin, startSession, type SessionEndReason } from '../../api/session';
import { sessionLimitText } from '../../app/session-time';
import { useCodedFlow } from '../../app/use-coded-flow';
import { lazyCodeStep } from '../../app/lazy-code-step';
import { useLoginState } from '../../app/login-state';
import { paths } from '../../app/paths.generated';
import { routeSetting } from '../../app/catalogue';
import { passkeyLogin, passkeysSupported } from '../../api/passkeys';

const RESEND_LOCK_SECONDS = routeSetting('login', 'resendLockSeconds');
const text = messages.login;
/** The code step loads when the first code is being sent, not with the login form. */
const { CodeStep, preload: preloadCodeStep } = lazyCodeStep<{ code: string }>(() => import('virtual:form/login-code'));

export default function LoginScreen() {
  const alert = useAlert();
  const navigate = useNavigate();
  const { from, notice } = useLoginState();

  /** Starts the session the server granted and goes where the member was going. */
  const finish = async ({ token, expires_in, ends_in }: { token?: string; expires_in?: number; ends_in?: number }) => {
    if (!token) {
      await alert(text.tokenMissing);
      throw new AlreadyTold();
    }
    startSession(token, expires_in, ends_in);
    navigate(from && !from.startsWith(paths.login) ? from : paths.mypage, { replace: true });
  };

  const flow = useCodedFlow<Credentials, { code: string }>({
    inputFormId: 'loginForm',
    inputFields: ['email', 'password'],
    resendSeconds: RESEND_LOCK_SECONDS,
    send: async (credentials) => {
      preloadCodeStep();
      if (hasLastLogin()) {
        try {
          await finish(await login(credentials));
          return 'no-code';
        } catch (failure) {
          if (failure instanceof AlreadyTold) throw failure;
          if (!(failure instanceof ApiFailure && failure.code === 'CODE_REQUIRED')) throw new LoginRefused();
        }
      }
      await sendLoginCode(credentials);
    },
    sendFailed: async (failure) => {
      if (failure instanceof AlreadyTold) return undefined;
      if (failure instanceof LoginRefused) return void (await alert(text.loginFailed));
      if (failure instanceof ApiFailure && failure.fields) return failure.fields;
      await alert(format(text.sendFailed, { detail: failure instanceof ApiFailure ? failure.message : text.sendFailedUnknown }));
    },
    verify: async (credentials, { code }) => finish(await login({ ...(credentials as Credentials), code })),
    verifyFailed: async (failure) => {
      if (failure instanceof AlreadyTold) return undefined;
      if (failure instanceof ApiFailure && failure.code === 'LOGIN_FAILED') return void (await alert(text.loginFailed));
      return { code: [verificationMessage(failure)] };
    },
  });
  const { state } = flow;
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  // Shown only where the browser has WebAuthn; decided after the first render, so the server's
  // page and the first render agree.
  const [canPasskey, setCanPasskey] = useState(false);
  useEffect(() => setCanPasskey(passkeysSupported()), []);

  /** The usernameless login (docs/decisions/031): the passkey alone, then on as after a coded login. */
  const withPasskey = async () => {
    setPasskeyBusy(true);
    try {
      const answer = await passkeyLogin();
      await finish(answer);
    } catch (failure) {
      if (!(failure instanceof AlreadyTold)) await alert(text.passkeyFailed);
    } finally {
      setPasskeyBusy(false);
    }
  };

  return (
    <section className="card">
      {notice && (
        <LiveStatus className="notice notice--warning" lines={[sessionEndedText(notice)]} />
      )}
      <p className="lead">{text.lead}</p>
      <SchemaForm
        id="loginForm"
        form={loginForm}
        formData={state.input}
        onChange={flow.setInput}
        onSubmit={flow.send}
        serverErrors={state.inputErrors}
        busy={flow.busy}
        uiOverrides={flow.inputOverrides}
        actions={flow.codeOpen || flow.phase === 'done' ? <></> : undefined}
      />
      {flow.codeOpen && (
        <CodeStep
          id="loginCodeForm"
          notice={{ template: text.codeSent, email: state.input.email ?? '' }}
          flow={flow}
          resend={{ label: text.resend, waitingLabel: text.resendIn }}
          redo={{ label: text.redo }}
        />
      )}
      {canPasskey && !flow.codeOpen && (
        <div className="passkey-login">
          <p>{text.passkeyLead}</p>
          <button type="button" className="button button--secondary button--block" disabled={passkeyBusy || flow.busy} aria-busy={passkeyBusy} onClick={() => void withPasskey()}>
            {text.passkey}
          </button>
        </div>
      )}
      <div className="links">
        <Link to={paths.passwordReminder}>{text.forgotPassword}</Link>
      </div>
      <div className="register-box">
        <p>{text.registerLead}</p>
        <Link className="button button--secondary" to={paths.register}>
          {text.register}
        </Link>
      </div>
    </section>
  );
}

/** Why the member was logged out, as it was (docs/decisions/024). */
function sessionEndedText(reason: SessionEndReason): string {
  if (reason === 'idle') return messages.session.expiredIdleBody;
  if (reason === 'limit') return format(messages.session.expiredLimitBody, { limit: sessionLimitText() });
  return text.sessionEnded;
}

/** The code-less login was refused for another reason than "a code is needed". */
class LoginRefused extends Error {}
/** A failure the member has already been shown in a dialog. */
class AlreadyTold extends Error {}
