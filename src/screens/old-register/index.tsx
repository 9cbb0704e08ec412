// Member information registration by link (the earlier generation): the mailed key is checked
// on load (no key, a failed check or no address → /email-auth); the verified address is held
// apart from the form and shown read-only in its e-mail field; the old form's own rules apply;
// success shows the register number and the next step, then goes to the login page (in the
// parent site's frame).
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import * as oldRegisterForm from 'virtual:form/old-register';
import messages from '../../../messages/ja.json';
import { paths } from '../../app/paths.generated';
import { SchemaForm } from '../../engine/SchemaForm';
import { format } from '../../shared/format';
import type { FieldErrors } from '../../shared/validation/field-errors';
import type { MasterOption } from '../../shared/api-types';
import { ApiFailure } from '../../api/client';
import { getMastersOrEmpty, type MasterName } from '../../api/masters';
import { mastersOf } from '../../shared/validation/conditions';
import { registerByLink, verifyRegistrationLink, type OldRegistrationPayload } from '../../api/old-flow';
import { useAlert } from '../../app/alert';
import { applicationReceived } from '../../app/application-received';
import { appPath, isFramed, navigateTop } from '../../app/frame';
import { settings } from '../../api/settings';
import { inParent } from '../../shared/parent-link';

const text = messages.oldRegister;
/** The option lists the form's fields name (x-master), the denshijiti master among them. */
const MASTERS = mastersOf(oldRegisterForm.schema) as Array<MasterName | 'denshijiti'>;
type Form = Omit<OldRegistrationPayload, 'key'>;
/** Why e-mail authentication was opened from here (messages.emailAuth[notice]). */
type EmailAuthNotice = 'linkInvalid' | 'linkUnchecked';

export default function OldRegisterScreen() {
  const key = useSearchParams()[0].get('key');
  const navigate = useNavigate();
  const alert = useAlert();
  const [verifiedEmail, setVerifiedEmail] = useState<string>();
  const [data, setData] = useState<Partial<Form>>({});
  const [masters, setMasters] = useState<Record<string, MasterOption[]>>({});
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>();

  useEffect(() => {
    let live = true;
    // E-mail authentication says why the member is there: a link that is used or expired, or
    // one that could not be checked (no key: nothing to explain, the screen's own lead says it).
    const toEmailAuth = (notice?: EmailAuthNotice) => live && navigate(paths.emailAuth, { replace: true, state: notice ? { notice } : undefined });
    if (!key) return void toEmailAuth();
    verifyRegistrationLink(key).then(
      (answer) => {
        if (!live) return;
        if (!answer?.email) return toEmailAuth('linkInvalid');
        setVerifiedEmail(answer.email);
        setData((current) => ({ ...current, email: answer.email }));
      },
      (failure) => {
        console.warn('registration link check failed', failure);
        toEmailAuth(failure instanceof ApiFailure && failure.status >= 400 && failure.status < 500 ? 'linkInvalid' : 'linkUnchecked');
      },
    );
    getMastersOrEmpty(MASTERS).then((lists) => live && setMasters(lists));
    return () => {
      live = false;
    };
  }, [key, navigate]);

  const submit = async (form: Form) => {
    setBusy(true);
    try {
      const answer = await registerByLink({
        ...form,
        key: key!,
        email: verifiedEmail!,
      });
      await alert(`${text.registered}\n\n${applicationReceived(answer?.register_number)}`);
      // Framed, the login page opens in the frame; opened bare (a link mailed before links went
      // through the parent site), the member lands on the parent site's page with it inside.
      if (isFramed()) navigate(paths.login, { replace: true });
      else navigateTop(inParent(new URL(settings().siteTopUrl, window.location.href).href, appPath(paths.login)));
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields) setFieldErrors(failure.fields);
      await alert(format(text.registerFailed, { detail: failure instanceof ApiFailure ? failure.message : messages.client.unknown }));
      if (failure instanceof ApiFailure && failure.code === 'LINK_INVALID') navigate(paths.emailAuth, { replace: true, state: { notice: 'linkInvalid' } });
    } finally {
      setBusy(false);
    }
  };

  if (!verifiedEmail) return <p className="loading">{text.checking}</p>;
  const missingLists = Object.values(masters).some((list) => list.length === 0) && Object.keys(masters).length > 0;
  return (
    <section className="card">
      <p className="lead">{text.lead}</p>
      <p className="notice notice--ok">{format(text.verifiedAddress, { email: verifiedEmail })}</p>
      {missingLists && (
        <p className="notice notice--error" role="alert">
          {text.mastersEmpty}
        </p>
      )}
      <SchemaForm id="oldRegisterForm" form={oldRegisterForm} formData={data} onChange={setData} onSubmit={submit} serverErrors={fieldErrors} busy={busy} masters={masters} />
    </section>
  );
}
