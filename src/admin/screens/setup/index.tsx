// The set-up link from the mail (/admin/setup?key=…): the operator chooses a password.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import * as setupForm from 'virtual:form/admin-operator-setup';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import { format } from '../../../shared/format';
import type { FieldErrors } from '../../../shared/validation/field-errors';
import type { SetupInput, SetupLink } from '../../../shared/admin-api';
import { adminCall, AdminFailure } from '../../api';
import { Failure, Loading, useLoad, failureText } from '../../ui';

/** What the form holds; the key comes from the link. */
type SetupData = Omit<SetupInput, 'key'>;

export default function SetupScreen() {
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  const link = useLoad(() => (key ? adminCall<SetupLink>('get', '/setup', { query: { key } }) : Promise.reject(new AdminFailure(text.setup.noKey, 400))), key);
  const [data, setData] = useState<Partial<SetupData>>({});
  const [errors, setErrors] = useState<FieldErrors>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  if (link.loading) return <Loading />;
  if (link.error) return <Failure message={link.error} />;
  if (done)
    return (
      <section className="card">
        <p className="notice notice--success" role="status">
          {text.setup.done}
        </p>
        <Link className="button button--primary" to="/login">
          {text.setup.toLogin}
        </Link>
      </section>
    );
  const submit = async (value: SetupData) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await adminCall('post', '/setup', { body: { key, ...value } satisfies SetupInput });
      setDone(true);
    } catch (thrown) {
      if (thrown instanceof AdminFailure && thrown.fields) setErrors(thrown.fields);
      else setFailure(failureText(thrown));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card">
      <p className="lead">{format(text.setup.lead, { name: link.data?.name ?? '', email: link.data?.email ?? '' })}</p>
      <Failure message={failure} />
      <SchemaForm id="adminSetupForm" form={setupForm} formData={data} onChange={setData} onSubmit={submit} serverErrors={errors} busy={busy} />
    </section>
  );
}
