// Member info edit: the edit form's sections (its UI schema), validated live, the birthday
// read-only. Filled from the saved member record, or from what the member typed in this tab and
// has not saved (a draft that survives a reload and a re-login; docs/decisions/024), with a note
// saying so; sends the specification's profile update payload (src/shared/wire/profile-update.ts).
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Link } from '../../app/Link';
import * as editForm from 'virtual:form/edit-profile';
import messages from '../../../messages/ja.json';
import { SchemaForm } from '../../engine/SchemaForm';
import { LiveStatus } from '../../engine/LiveStatus';
import { normalise } from '../../shared/normalise';
import { mastersOf } from '../../shared/validation/conditions';
import { profileToWire } from '../../shared/wire/profile-update';
import { formDataOf, memberRecord } from '../../shared/member-record';
import type { FieldErrors } from '../../shared/validation/field-errors';
import type { UserInfo } from '../../shared/api-types';
import { ApiFailure } from '../../api/client';
import { updateUserInfo } from '../../api/user-info';
import { useAlert } from '../../app/alert';
import { useProfileData } from '../../app/use-profile-data';
import { paths } from '../../app/paths.generated';
import { useOwnedDraft } from '../../app/use-session-draft';

const text = messages.edit;
const MASTERS = mastersOf(editForm.schema);
// The member record's fields this form has (src/shared/member-record.ts).
const RECORD = memberRecord({ [editForm.name]: editForm });

type EditData = Record<string, unknown>;
/** The edit form asks for no password or code; a field named password would never be kept anyway. */
const SECRETS = [] as const;

function EditForm({ user, masters }: { user: UserInfo; masters: Record<string, { value: string; label: string }[]> }) {
  // The saved record as the form holds it: lists as lists, the postal code as members read it
  // (x-display: 100-0001), empty fields not given.
  const saved = useMemo(() => formDataOf(RECORD, editForm.name, user), [user]);
  const { restoreFor, keep: keepDraft, clear: clearDraft } = useOwnedDraft<EditData>('edit', SECRETS);
  const [restored] = useState(() => restoreFor(user.email, saved));
  const [data, setData] = useState<Partial<EditData>>(() => restored ?? saved);
  useEffect(() => keepDraft(user.email, data, saved), [keepDraft, data, saved, user.email]);
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>();
  const alert = useAlert();
  const navigate = useNavigate();

  const submit = async (form: EditData) => {
    setBusy(true);
    try {
      await updateUserInfo(profileToWire(editForm.schema, normalise(editForm.schema, form), user));
      clearDraft();
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
    <>
      {restored && (
        <LiveStatus className="notice notice--info" lines={[messages.session.draftRestored]} />
      )}
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
      // The spec's red notice is the heading of the engine's error summary, at the top of the form.
      actions={
        <div className="actions">
          <Link className="button" to={paths.info}>
            {text.cancel}
          </Link>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? text.saving : text.submit}
          </button>
        </div>
      }
    />
    </>
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
