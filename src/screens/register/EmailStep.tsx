// STEP1: the address, entered twice, proven with a mailed 5-digit code.
import { useEffect, useState } from 'react';
import * as emailForm from 'virtual:form/register-email';
import messages from '../../../messages/ja.json';
import { SchemaForm } from '../../engine/SchemaForm';
import { LiveStatus } from '../../engine/LiveStatus';
import { ApiFailure } from '../../api/client';
import { sendRegistrationCode, verifyRegistrationCode } from '../../api/registration';
import { verificationMessage } from '../../api/verification';
import { lazyCodeStep } from '../../app/lazy-code-step';
import { useCodedFlow } from '../../app/use-coded-flow';

const text = messages.register;
const VERIFY_DELAY_MS = 1000;
/** The code step loads when the code is being sent, not with the page. */
const { CodeStep, preload: preloadCodeStep } = lazyCodeStep<{ code: string }>(() => import('virtual:form/register-code'));

export interface Address {
  email: string;
  email_confirm: string;
}

/** The server confirmed a code but named no address. */
class NoEmail extends Error {}

export interface Verified {
  email: string;
  code: string;
}

interface EmailStepProps {
  onVerified: (v: Verified) => void;
  onReset: () => void;
  /** The address from the tab's draft, to verify again. */
  initialAddress?: Partial<Address>;
  onAddressChange: (address: Partial<Address>) => void;
}

export function EmailStep({ onVerified, onReset, initialAddress, onAddressChange }: EmailStepProps) {
  // A refused send's message shows once: on the field when the server names it (an address that
  // is already a member), otherwise under the form.
  const [sendError, setSendError] = useState<string>();
  const flow = useCodedFlow<Address, { code: string }>({
    initialInput: initialAddress,
    inputFormId: 'registerEmailForm',
    inputFields: ['email', 'email_confirm'],
    send: async ({ email }) => {
      preloadCodeStep();
      setSendError(undefined);
      await sendRegistrationCode(email);
    },
    sendFailed: (failure) => {
      if (failure instanceof ApiFailure && failure.fields?.email) return failure.fields;
      setSendError(failure instanceof ApiFailure ? failure.message || text.sendFailed : text.unknown);
      return undefined;
    },
    verify: async ({ email }, { code: key }) => {
      await new Promise((resolve) => setTimeout(resolve, VERIFY_DELAY_MS));
      const answer = await verifyRegistrationCode(email!, key);
      if (!answer?.email) throw new NoEmail();
      onVerified({ email: answer.email, code: key });
    },
    verifyFailed: (failure) => ({ code: [failure instanceof NoEmail ? messages.verification.noEmail : verificationMessage(failure, true)] }),
    // The link beside the mailed code: the address and a code filled in, as if typed
    // (docs/decisions/015).
    link: {
      purpose: 'email_register',
      input: (email) => {
        preloadCodeStep();
        return { email, email_confirm: email };
      },
      code: ({ code }) => ({ code }),
      failed: (failure) => setSendError(failure instanceof ApiFailure && failure.message ? failure.message : messages.api.CODE_LINK_INVALID),
    },
  });
  const { state, phase } = flow;
  useEffect(() => onAddressChange(state.input), [state.input, onAddressChange]);
  const redo = () => {
    setSendError(undefined);
    flow.redo();
    onReset();
  };

  return (
    <section className="card step" aria-labelledby="step1-title" id="step1">
      <h2 id="step1-title" className="step__title">
        {text.step1}
      </h2>
      <SchemaForm
        id="registerEmailForm"
        form={emailForm}
        formData={state.input}
        onChange={flow.setInput}
        onSubmit={flow.send}
        serverErrors={state.inputErrors}
        busy={flow.busy}
        uiOverrides={flow.inputOverrides}
        actions={phase === 'input' || phase === 'sending' ? undefined : <></>}
      />
      {sendError && (
        <p className="form-error" role="alert">
          {sendError}
        </p>
      )}
      {flow.codeOpen && (
        <CodeStep
          id="registerCodeForm"
          notice={{ template: state.linked ? messages.verification.linkOpened : text.codeSent, email: state.input.email ?? '' }}
          flow={flow}
          redo={{ label: text.redo, onRedo: redo }}
        />
      )}
      {phase === 'done' && (
        <>
          <LiveStatus className="notice notice--ok" lines={[text.verified]} />
          <div className="actions actions--secondary">
            <button type="button" className="button button--ghost" onClick={redo}>
              {text.redo}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
