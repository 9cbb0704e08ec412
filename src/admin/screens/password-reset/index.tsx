// The 'forgot your password' page (/admin/password-reset): the operator's address, answered the same
// whoever's it is; the mailed link (/admin/password-reset?key=…) opens the set-up form for a new
// password, as the set-up link does.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import * as resetForm from 'virtual:form/admin-password-reset';
import * as setupForm from 'virtual:form/admin-operator-setup';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import { format } from '../../../shared/format';
import type { PasswordResetInput } from '../../../shared/admin-api';
import { adminCall } from '../../api';
import { Failure, useAction } from '../../ui';
import { LinkPage } from '../setup';
import { LiveStatus } from '../../../engine/LiveStatus';

function AskForLink() {
  const [data, setData] = useState<Partial<PasswordResetInput>>({});
  const [sent, setSent] = useState<string>();
  const { busy, errors, failure, run } = useAction();
  if (sent)
    return (
      <section className="card card--narrow">
        <LiveStatus className="notice notice--success" lines={[format(text.passwordReset.sent, { email: sent })]} />
        <Link className="button" to="/login">
          {text.setup.toLogin}
        </Link>
      </section>
    );
  return (
    <section className="card card--narrow">
      <p className="lead">{text.passwordReset.lead}</p>
      <Failure message={failure} />
      <SchemaForm
        id="adminPasswordResetForm"
        form={resetForm}
        formData={data}
        onChange={setData}
        serverErrors={errors}
        busy={busy}
        onSubmit={(value: PasswordResetInput) =>
          run(async () => {
            await adminCall('post', '/password-reset', { body: value });
            setSent(value.email);
          })
        }
      />
      <p>
        <Link to="/login">{text.setup.toLogin}</Link>
      </p>
    </section>
  );
}

export default function PasswordResetScreen() {
  const [params] = useSearchParams();
  if (!params.get('key')) return <AskForLink />;
  return <LinkPage path="/password-reset/link" form={setupForm} texts={{ lead: text.passwordReset.linkLead, linkInvalid: text.passwordReset.linkInvalid, noKey: text.passwordReset.linkInvalid, done: text.passwordReset.done, again: { to: '/password-reset', label: text.passwordReset.again } }} />;
}
