// STEP1: the address, entered twice, proven with a mailed 5-digit code.
import { useState } from 'react';
import * as emailForm from 'virtual:form/register-email';
import * as codeForm from 'virtual:form/register-code';
import messages from '../../../messages/ja.json';
import { SchemaForm } from '../../engine/SchemaForm';
import { format } from '../../shared/format';
import type { FieldErrors } from '../../shared/validation/field-errors';
import { ApiFailure } from '../../api/client';
import { sendRegistrationCode, verifyRegistrationCode } from '../../api/registration';
import { verificationMessage } from '../../api/verification';
import { CodeEntry } from '../../app/CodeEntry';
import { codeLengthOf } from '../../shared/validation/code-length';

const text = messages.register;
const VERIFY_DELAY_MS = 1000;
const READ_ONLY = { email: { 'ui:readonly': true }, email_confirm: { 'ui:readonly': true } };

export interface Verified {
  email: string;
  code: string;
}

type Phase = 'input' | 'sent' | 'verified';

export function EmailStep({ onVerified, onReset }: { onVerified: (v: Verified) => void; onReset: () => void }) {
  const [phase, setPhase] = useState<Phase>('input');
  const [address, setAddress] = useState<{ email?: string; email_confirm?: string }>({});
  const [code, setCode] = useState<{ code?: string }>({});
  const [busy, setBusy] = useState(false);
  const [sendError, setSendError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>();
  const [codeErrors, setCodeErrors] = useState<FieldErrors>();

  const send = async ({ email }: { email: string }) => {
    setBusy(true);
    setSendError(undefined);
    try {
      await sendRegistrationCode(email);
      setPhase('sent');
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields?.email) setFieldErrors(failure.fields);
      setSendError(failure instanceof ApiFailure ? failure.message || text.sendFailed : text.unknown);
    } finally {
      setBusy(false);
    }
  };

  const verify = async ({ code: key }: { code: string }) => {
    setBusy(true);
    try {
      await new Promise((resolve) => setTimeout(resolve, VERIFY_DELAY_MS));
      const answer = await verifyRegistrationCode(address.email!, key);
      if (!answer?.email) return setCodeErrors({ code: [messages.verification.noEmail] });
      setPhase('verified');
      onVerified({ email: answer.email, code: key });
    } catch (failure) {
      setCodeErrors({ code: [verificationMessage(failure)] });
    } finally {
      setBusy(false);
    }
  };

  const redo = () => {
    setPhase('input');
    setCode({});
    setCodeErrors(undefined);
    setSendError(undefined);
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
        formData={address}
        onChange={setAddress}
        onSubmit={send}
        serverErrors={fieldErrors}
        busy={busy}
        uiOverrides={phase === 'input' ? undefined : READ_ONLY}
        actions={phase === 'input' ? undefined : <></>}
      />
      {sendError && (
        <p className="form-error" role="alert">
          {sendError}
        </p>
      )}
      {phase === 'sent' && (
        <CodeEntry
          id="registerCodeForm"
          notice={format(text.codeSent, { email: address.email ?? '', length: codeLengthOf(codeForm.schema) })}
          form={codeForm}
          formData={code}
          onChange={setCode}
          onSubmit={verify}
          serverErrors={codeErrors}
          busy={busy}
          redo={{ label: text.redo, onRedo: redo }}
        />
      )}
      {phase === 'verified' && (
        <>
          <p className="notice notice--ok" role="status">
            {text.verified}
          </p>
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
