// The set-up link from the mail (/admin/setup?key=…): the operator chooses a password. A link
// that opens nothing (used, replaced, expired) is told in the office's words: log in if the
// password is set, else ask an administrator for a new link.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import * as setupForm from 'virtual:form/admin-operator-setup';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm, type FormModule } from '../../../engine/SchemaForm';
import { format } from '../../../shared/format';
import type { FieldErrors } from '../../../shared/validation/field-errors';
import type { SetupInput, SetupLink } from '../../../shared/admin-api';
import { adminCall, AdminFailure } from '../../api';
import { Failure, Loading, useLoad, failureText } from '../../ui';
import { LiveStatus } from '../../../engine/LiveStatus';

/** What the form holds; the key comes from the link. */
type SetupData = Omit<SetupInput, 'key'>;

/** A refusal, with a link that opens nothing told as the office tells it. */
const inOfficeWords = (thrown: unknown, linkInvalid: string) =>
  thrown instanceof AdminFailure && thrown.code === 'LINK_INVALID' ? new AdminFailure(linkInvalid, thrown.status, thrown.code) : thrown;

/** The page a mailed link opens: its operator, the set-up form, and what to do when it opens nothing. */
export function LinkPage({ path, form, texts }: { path: string; form: FormModule; texts: { lead: string; linkInvalid: string; noKey: string; done: string; again?: { to: string; label: string } } }) {
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  const link = useLoad(
    () => (key ? adminCall<SetupLink>('get', path, { query: { key } }).catch((thrown: unknown) => Promise.reject(inOfficeWords(thrown, texts.linkInvalid))) : Promise.reject(new AdminFailure(texts.noKey, 400))),
    key,
  );
  const [data, setData] = useState<Partial<SetupData>>({});
  const [errors, setErrors] = useState<FieldErrors>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  if (link.loading) return <Loading />;
  const failed = link.error ?? failure;
  const ways = (
    <div className="actions actions--secondary">
      <Link className="button button--primary" to="/login">
        {text.setup.toLogin}
      </Link>
      {texts.again && (
        <Link className="button" to={texts.again.to}>
          {texts.again.label}
        </Link>
      )}
    </div>
  );
  if (link.error)
    return (
      <section className="card">
        <Failure message={failed} />
        {ways}
      </section>
    );
  if (done)
    return (
      <section className="card">
        <LiveStatus className="notice notice--success" lines={[texts.done]} />
        <Link className="button button--primary" to="/login">
          {text.setup.toLogin}
        </Link>
      </section>
    );
  const submit = async (value: SetupData) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await adminCall('post', path, { body: { key, ...value } satisfies SetupInput });
      setDone(true);
    } catch (thrown) {
      if (thrown instanceof AdminFailure && thrown.fields) setErrors(thrown.fields);
      else setFailure(failureText(inOfficeWords(thrown, texts.linkInvalid)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card">
      <p className="lead">{format(texts.lead, { name: link.data?.name ?? '', email: link.data?.email ?? '' })}</p>
      <Failure message={failure} />
      {failure === texts.linkInvalid && ways}
      <SchemaForm id="adminSetupForm" form={form} formData={data} onChange={setData} onSubmit={submit} serverErrors={errors} busy={busy} />
    </section>
  );
}

export default function SetupScreen() {
  return <LinkPage path="/setup" form={setupForm} texts={text.setup} />;
}
