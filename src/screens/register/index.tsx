// Registration (current flow): STEP1 e-mail verification, STEP2 basic information, STEP3 terms,
// STEP4 the final button, which stays reachable (aria-disabled) so that activating it while
// something is missing shows every error and one error summary for the page, at its top.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import * as profileForm from 'virtual:form/register-profile';
import * as termsForm from 'virtual:form/register-terms';
import messages from '../../../messages/ja.json';
import { SchemaForm, differsFromDefaults, isFormValid, summaryOf, type SchemaFormHandle } from '../../engine/SchemaForm';
import { ErrorSummary } from '../../engine/ErrorSummary';
import { LiveStatus } from '../../engine/LiveStatus';
import { format } from '../../shared/format';
import { normalise } from '../../shared/normalise';
import { mastersOf } from '../../shared/validation/conditions';
import { registrationToWire } from '../../shared/wire/registration';
import type { FieldErrors } from '../../shared/validation/field-errors';
import type { MasterName, MasterOption } from '../../shared/api-types';
import { ApiFailure } from '../../api/client';
import { getMasters, MasterLoadError } from '../../api/masters';
import { registerMember } from '../../api/registration';
import { useAlert } from '../../app/alert';
import { applicationReceived } from '../../app/application-received';
import { LazyLegalDocument } from '../../app/LazyLegalDocument';
import { navigateTop } from '../../app/frame';
import { settings } from '../../api/settings';
import { startSession } from '../../api/session';
import { EmailStep, type Address, type Verified } from './EmailStep';
import { useLeaveWarning, useSessionDraft } from '../../app/use-session-draft';

const text = messages.register;
/** The terms of use, at the foot of the page: loaded when their box comes into view, or once the
 *  address is verified (the member can then agree to them). */
const loadTerms = () => import('../../../messages/terms.ja.json');
/** STEP2's data, as its schema (register-profile) shapes it. */
type Profile = Record<string, unknown>;

/** Never kept in the tab's draft. */
const SECRETS = ['password', 'password_confirm', 'code', 'verification_code'] as const;

type Draft = { address: Partial<Address>; profile: Partial<Profile> };

const hasInput = (value: object) => Object.values(value).some((v) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0));
/** The member's own input: STEP1's address, or STEP2 changed from its preset defaults. */
const memberTyped = (draft: Partial<Draft> | undefined) => !!draft && ((!!draft.address && hasInput(draft.address)) || differsFromDefaults(profileForm, draft.profile));

/** STEP2 and STEP3 before the address is verified: visibly locked, every control disabled (a
 *  disabled fieldset), with the note saying why, which the group is described by. */
function LockedUntilVerified({ locked, titleId, noteId, children }: { locked: boolean; titleId: string; noteId: string; children: ReactNode }) {
  return (
    <>
      {locked && (
        <p id={noteId} className="notice notice--locked">
          {text.locked}
        </p>
      )}
      <fieldset className={locked ? 'step__body step__body--locked' : 'step__body'} disabled={locked} aria-labelledby={titleId} aria-describedby={locked ? noteId : undefined}>
        {children}
      </fieldset>
    </>
  );
}

export default function RegisterScreen() {
  // What the member typed survives back/forward and reload in this tab, secrets aside. A
  // verified address is not (its proof is a code): it comes back filled in, to verify again.
  const { initial, save: saveDraft, clear: clearDraft } = useSessionDraft<Draft>('register', SECRETS);
  const [verified, setVerified] = useState<Verified | null>(null);
  const [address, setAddress] = useState<Partial<Address>>(() => initial?.address ?? {});
  const [profile, setProfile] = useState<Partial<Profile>>(() => initial?.profile ?? {});
  const [registered, setRegistered] = useState(false);
  useEffect(() => {
    if (!registered) saveDraft({ address, profile });
  }, [address, profile, registered, saveDraft]);
  // Preset defaults (gender, job, industry, mail preference) are not input: no warning for them.
  useLeaveWarning(!registered && memberTyped({ address, profile }));
  // A draft brought back says so, and that the address must be verified again (its code is not kept).
  const [restored] = useState(() => memberTyped(initial));
  // STEP2 opens once the address is verified: the member goes on at its first field.
  useEffect(() => {
    if (verified) document.querySelector<HTMLElement>('#registerProfileForm input:not([type="hidden"])')?.focus();
  }, [verified]);
  const [agreement, setAgreement] = useState<{ agree?: boolean }>({});
  const [masters, setMasters] = useState<Record<string, MasterOption[]>>({});
  const [mastersError, setMastersError] = useState<string>();
  const [needStep1, setNeedStep1] = useState(false);
  const [busy, setBusy] = useState(false);
  const [profileErrors, setProfileErrors] = useState<FieldErrors>();
  const profileRef = useRef<SchemaFormHandle>(null);
  const termsRef = useRef<SchemaFormHandle>(null);
  const alert = useAlert();
  // Refused presses of the final button: the page's error summary takes focus for each.
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    getMasters(mastersOf(profileForm.schema) as MasterName[]).then(setMasters, (error) =>
      setMastersError(format(text.mastersFailed, { master: error instanceof MasterLoadError ? error.master : '' })),
    );
  }, []);

  const ready = !!verified && isFormValid(profileForm, profile) && isFormValid(termsForm, agreement);

  const submit = async () => {
    if (!ready) {
      setNeedStep1(!verified);
      profileRef.current?.showAllErrors();
      termsRef.current?.showAllErrors();
      setAttempt((n) => n + 1);
      return;
    }
    const payload = registrationToWire(profileForm.schema, normalise(profileForm.schema, profile as Profile), verified);
    setBusy(true);
    try {
      const { token, expires_in, ends_in, register_number } = await registerMember(payload);
      if (!token) return await alert(text.tokenMissing);
      startSession(token, expires_in, ends_in);
      setRegistered(true);
      clearDraft();
      await alert(`${text.completed}\n\n${applicationReceived(register_number)}`);
      navigateTop(settings().siteTopUrl);
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields) {
        setProfileErrors(failure.fields);
      }
      await alert(failure instanceof ApiFailure && failure.message ? failure.message : text.failed);
    } finally {
      setBusy(false);
    }
  };

  // A key in STEP2 re-renders this screen: STEP1 and STEP3 (their forms and the terms text) are
  // kept as they were unless what they show changed (keystroke → paint, ADR 017).
  const onVerified = useCallback((v: Verified) => {
    setVerified(v);
    setNeedStep1(false);
  }, []);
  const onReset = useCallback(() => setVerified(null), []);
  const emailStep = useMemo(
    () => <EmailStep initialAddress={initial?.address} onAddressChange={setAddress} onVerified={onVerified} onReset={onReset} />,
    [initial, onVerified, onReset],
  );
  const termsStep = useMemo(
    () => (
      <section className="card step" aria-labelledby="step3-title">
        <h2 id="step3-title" className="step__title">
          {text.step3}
        </h2>
        <LazyLegalDocument id="terms" load={loadTerms} now={!!verified} />
        <LockedUntilVerified locked={!verified} titleId="step3-title" noteId="step3-locked">
          <SchemaForm
            ref={termsRef}
            id="registerTermsForm"
            form={termsForm}
            formData={agreement}
            onChange={setAgreement}
            onSubmit={() => undefined}
            disabled={!verified}
            summary={false}
            actions={<></>}
          />
        </LockedUntilVerified>
      </section>
    ),
    [agreement, verified],
  );

  // Until the address is verified, STEP2 and STEP3 cannot be filled in: the summary names STEP1.
  const summary =
    attempt === 0 ? [] : !verified ? [{ fieldId: 'root_email', text: text.needVerification }] : [...summaryOf(profileForm, profile), ...summaryOf(termsForm, agreement)];

  return (
    <div className="register">
      <p className="lead">{text.lead}</p>
      {restored && !verified && (
        <LiveStatus className="notice notice--info" lines={[text.draftRestored]} />
      )}
      <ErrorSummary items={summary} attempt={attempt} />
      {mastersError && (
        <p className="notice notice--error" role="alert">
          {mastersError}
        </p>
      )}
      {emailStep}
      {needStep1 && !verified && <p className="notice notice--warning form-error">{text.needVerification}</p>}

      <section className="card step" aria-labelledby="step2-title">
        <h2 id="step2-title" className="step__title">
          {text.step2}
        </h2>
        <LockedUntilVerified locked={!verified} titleId="step2-title" noteId="step2-locked">
          <SchemaForm
            ref={profileRef}
            id="registerProfileForm"
            form={profileForm}
            formData={profile}
            onChange={setProfile}
            onSubmit={() => undefined}
            serverErrors={profileErrors}
            disabled={!verified}
            masters={masters}
            summary={false}
            actions={<></>}
          />
        </LockedUntilVerified>
      </section>

      {termsStep}

      <section className="card step" aria-labelledby="step4-title">
        <h2 id="step4-title" className="step__title">
          {text.step4}
        </h2>
        <div className="actions">
          <button
            type="button"
            className="button button--primary"
            aria-disabled={!ready || busy}
            onClick={() => !busy && void submit()}
          >
            {busy ? text.submitting : text.submit}
          </button>
        </div>
      </section>
    </div>
  );
}
