// E-mail change: the current address (read-only), the new one, a code mailed to the new
// address, confirm. Resend is locked for 30 seconds; "redo" returns to the address entry.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import * as addressForm from 'virtual:form/email-change';
import * as codeForm from 'virtual:form/email-change-code';
import messages from '../../../messages/ja.json';
import { SchemaForm, isFormValid } from '../../engine/SchemaForm';
import { format } from '../../shared/format';
import { ApiFailure } from '../../api/client';
import { getUserInfo } from '../../api/user-info';
import { confirmEmailChange, sendEmailChangeCode } from '../../api/account';
import { verificationMessage } from '../../api/verification';
import { useAlert } from '../../app/alert';
import { useCodedFlow } from '../../app/use-coded-flow';
import { CodeEntry } from '../../app/CodeEntry';
import { paths } from '../../app/paths.generated';
import { routeSetting } from '../../app/catalogue';

const RESEND_LOCK_SECONDS = routeSetting('email/change', 'resendLockSeconds');
const text = messages.emailChange;

interface Address {
  current_email: string;
  email: string;
}

function EmailChangeFlow({ currentEmail }: { currentEmail: string }) {
  const alert = useAlert();
  const navigate = useNavigate();
  const flow = useCodedFlow<Address, { code: string }>({
    initialInput: { current_email: currentEmail },
    keepOnRedo: () => ({ current_email: currentEmail }),
    inputFormId: 'emailChangeForm',
    inputFields: ['email'],
    resendSeconds: RESEND_LOCK_SECONDS,
    send: ({ email }) => sendEmailChangeCode(email).then(() => undefined),
    sendFailed: async (failure) => {
      if (failure instanceof ApiFailure && failure.fields) return failure.fields;
      await alert(format(text.sendFailed, { detail: failure instanceof ApiFailure ? failure.message : messages.client.unknown }));
    },
    verify: async ({ email }, { code }) => {
      await confirmEmailChange(email!, code);
      await alert(text.done);
      navigate(paths.mypage);
    },
    verifyFailed: async (failure) => {
      if (failure instanceof ApiFailure && failure.status > 0 && failure.code !== 'EMAIL_TAKEN') return { code: [verificationMessage(failure)] };
      await alert(format(text.failed, { detail: failure instanceof Error ? failure.message : messages.client.unknown }));
    },
  });
  const { state } = flow;
  const address = state.input;
  // The schema refuses the current address as the new one (and an empty one): no send before.
  const canSend = !!address.email && isFormValid(addressForm, address);
  return (
    <section className="card">
      <p className="lead">{text.lead}</p>
      <SchemaForm
        id="emailChangeForm"
        form={addressForm}
        formData={address}
        onChange={flow.setInput}
        onSubmit={flow.send}
        serverErrors={state.inputErrors}
        busy={flow.busy}
        uiOverrides={flow.inputOverrides}
        actions={
          flow.phase === 'input' || flow.phase === 'sending' ? (
            <div className="actions">
              <button type="submit" className="button button--primary" disabled={!canSend || flow.busy}>
                {flow.busy ? messages.form.busy : (addressForm.uiSchema['ui:submitButtonOptions'] as { submitText: string }).submitText}
              </button>
            </div>
          ) : (
            <></>
          )
        }
      />
      {flow.codeOpen && (
        <CodeEntry
          id="emailChangeCodeForm"
          notice={{ template: text.codeSent, email: address.email ?? '' }}
          form={codeForm}
          flow={flow}
          resend={{ label: text.resend, waitingLabel: text.resendIn }}
          redo={{ label: text.redo }}
        />
      )}
    </section>
  );
}

export default function EmailChangeScreen() {
  // A dead session never resolves here: the API client takes the member to login.
  const [current, setCurrent] = useState<{ email?: string; failed?: boolean }>();
  useEffect(() => {
    getUserInfo().then(
      (user) => setCurrent({ email: user.email }),
      () => setCurrent({ failed: true }),
    );
  }, []);
  if (!current) return <p className="loading">{text.loading}</p>;
  if (current.failed)
    return (
      <p className="notice notice--error" role="alert">
        {messages.info.failed}
      </p>
    );
  return <EmailChangeFlow currentEmail={current.email!} />;
}
