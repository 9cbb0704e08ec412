// Member info edit: two sections (basic information; residence and purposes), validated live,
// the birthday read-only. Sends the specification's profile update payload.
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import * as editForm from 'virtual:form/edit-profile';
import messages from '../../../messages/ja.json';
import { SchemaForm, isFormValid } from '../../engine/SchemaForm';
import { normalise } from '../../shared/normalise';
import { mastersOf } from '../../shared/validation/conditions';
import { profileToWire, type ProfileForm } from '../../shared/wire/profile-update';
import type { FieldErrors } from '../../shared/validation/field-errors';
import type { UserInfo } from '../../shared/api-types';
import { ApiFailure } from '../../api/client';
import { updateUserInfo } from '../../api/user-info';
import { useAlert } from '../../app/alert';
import { useProfileData } from '../../app/use-profile-data';
import { paths } from '../../app/paths.generated';

const text = messages.edit;
const MASTERS = mastersOf(editForm.schema);

type EditData = ProfileForm;

/** The saved profile as the form holds it (purpose as a list, empty optional fields absent). */
function toFormData(user: UserInfo): Partial<EditData> {
  const optional = (value: string) => (value ? value : undefined);
  return {
    last_name_kanji: user.last_name_kanji,
    first_name_kanji: user.first_name_kanji,
    last_name_alpha: user.last_name_alpha,
    first_name_alpha: user.first_name_alpha,
    birthday: user.birthday,
    gender: user.gender,
    job: user.job,
    industry: user.industry,
    industry_other: optional(user.industry_other),
    // Shown as the member reads it elsewhere (info: 〒100-0001); sent without the hyphen.
    zip_current: user.zip_current.replace(/^(\d{3})(\d{4})$/, '$1-$2'),
    address_current: user.address_current,
    phone: user.phone,
    amc: optional(user.amc),
    mail_opt: user.mail_opt,
    purpose: user.purpose.split(',').filter(Boolean),
    purpose_other: optional(user.purpose_other),
    purpose_detail: user.purpose_detail,
  };
}

function EditForm({ user, masters }: { user: UserInfo; masters: Record<string, { value: string; label: string }[]> }) {
  const [data, setData] = useState<Partial<EditData>>(() => toFormData(user));
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>();
  const alert = useAlert();
  const navigate = useNavigate();
  const valid = isFormValid(editForm, data);

  const submit = async (form: EditData) => {
    setBusy(true);
    try {
      await updateUserInfo(profileToWire(normalise(editForm.schema, form), user));
      await alert(text.done);
      navigate(paths.mypage);
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields) setServerErrors(failure.fields);
      await alert(failure instanceof ApiFailure && failure.isTimeout ? text.timeout : text.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <SchemaForm
      id="editForm"
      form={editForm}
      formData={data}
      onChange={setData}
      onSubmit={submit}
      serverErrors={serverErrors}
      masters={masters}
      // A saved value a rule now refuses shows its message at once, so the member can fix it.
      showErrorsOnOpen
      actions={
        <>
          {!valid && (
            <p className="notice notice--error" role="alert">
              {text.invalid}
            </p>
          )}
          <div className="actions">
            <Link className="button" to={paths.info}>
              {text.cancel}
            </Link>
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? text.saving : text.submit}
            </button>
          </div>
        </>
      }
    />
  );
}

export default function EditScreen() {
  const profile = useProfileData(MASTERS);
  if (profile.state === 'loading') return <p className="loading">{messages.info.loading}</p>;
  if (profile.state === 'error')
    return (
      <p className="notice notice--error" role="alert">
        {messages.info.failed}
      </p>
    );
  return (
    <section className="card">
      <p className="lead">{text.lead}</p>
      <EditForm user={profile.user} masters={profile.masters} />
    </section>
  );
}
