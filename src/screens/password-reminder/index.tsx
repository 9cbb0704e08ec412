// Password reminder: identity (e-mail, birthday, phone) → the mailed code and a new password →
// done. Resend is locked for 60 seconds; "start over" resets everything. The steps are the
// shared coded-flow machine.
import * as identityForm from 'virtual:form/reset-identity';
import * as passwordForm from 'virtual:form/reset-password';
import messages from '../../../messages/ja.json';
import { SchemaForm } from '../../engine/SchemaForm';
import { format } from '../../shared/format';
import { ApiFailure } from '../../api/client';
import { sendResetCode, setPassword, type Identity } from '../../api/password-reset';
import { verificationMessage } from '../../api/verification';
import { useAlert } from '../../app/alert';
import { useCodedFlow } from '../../app/use-coded-flow';
import { CodeEntry } from '../../app/CodeEntry';
import { navigateTop } from '../../app/frame';
import { settings } from '../../api/settings';
import { paths } from '../../app/paths.generated';
import { routeSetting } from '../../app/catalogue';

const text = messages.passwordReminder;
const RESEND_LOCK_SECONDS = routeSetting('password_reminder', 'resendLockSeconds');
const CODE_ERRORS = new Set(['CODE_INVALID', 'CODE_LOCKED', 'CODE_RATE_LIMITED', 'TOO_MANY_ATTEMPTS']);

interface NewPassword {
  email: string;
  code: string;
  new_password: string;
  new_password_confirm: string;
}

export default function PasswordReminderScreen() {
  const alert = useAlert();
  const flow = useCodedFlow<Identity, NewPassword>({
    inputFormId: 'resetIdentityForm',
    inputFields: ['email', 'birthday', 'phone'],
    resendSeconds: RESEND_LOCK_SECONDS,
    send: (who) => sendResetCode(who).then(() => undefined),
    // The code step carries the address the code went to (a hidden field of its form).
    codeFor: (who) => ({ email: who.email }),
    sendFailed: async (failure) => {
      await alert(failure instanceof ApiFailure && failure.message ? failure.message : text.identityFailed);
      return failure instanceof ApiFailure ? failure.fields : undefined;
    },
    verify: async (_, { email, code, new_password: password }) => {
      await setPassword(email, code, password);
    },
    // The link beside the mailed code: the address and a code filled in; the member sets the
    // new password (docs/decisions/015).
    link: {
      purpose: 'password_change',
      input: (email) => ({ email }),
      code: ({ email, code }) => ({ email, code }),
      failed: (failure) => void alert(failure instanceof ApiFailure && failure.message ? failure.message : messages.api.CODE_LINK_INVALID),
    },
    verifyFailed: async (failure) => {
      if (!(failure instanceof ApiFailure) || failure.isNetwork || failure.isTimeout) return void (await alert(text.network));
      if (CODE_ERRORS.has(failure.code ?? '')) return { code: [verificationMessage(failure, true)] };
      if (failure.fields) return failure.fields;
      await alert(failure.message || text.failed);
    },
  });
  const { state, phase } = flow;

  if (phase === 'done') {
    return (
      <section className="card">
        {/* The step's outcome takes focus, so it is what a screen reader reads next. */}
        <h2 className="card__title" tabIndex={-1} ref={(heading) => heading?.focus()}>
          {text.doneTitle}
        </h2>
        <p>{text.doneBody}</p>
        <button type="button" className="button button--primary" onClick={() => navigateTop(paths.mypage)}>
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
        formData={state.input}
        onChange={flow.setInput}
        onSubmit={flow.send}
        serverErrors={state.inputErrors}
        busy={flow.busy}
        uiOverrides={flow.inputOverrides}
        actions={flow.codeOpen ? <></> : undefined}
      />
      {flow.codeOpen && (
        <CodeEntry
          id="resetPasswordForm"
          notice={{ template: state.linked ? messages.verification.linkOpened : text.codeSent, email: state.input.email ?? '' }}
          form={passwordForm}
          flow={flow}
          resend={{ label: text.resend, waitingLabel: text.resendIn }}
          redo={{ label: text.startOver }}
        />
      )}
      <p className="field__help domain-note">{format(text.domainNote, { domain: settings().mailDomain })}</p>
    </section>
  );
}
