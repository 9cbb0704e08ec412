// Member login of the earlier generation: e-mail, password and code on one screen. The
// send-code button waits for an e-mail, the login button for all three fields; the code comes
// from the earliest login's {email}-only request; success goes to /.
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Link } from '../../app/Link';
import * as oldLoginForm from 'virtual:form/old-login';
import messages from '../../../messages/ja.json';
import { paths } from '../../app/paths.generated';
import { SchemaForm } from '../../engine/SchemaForm';
import { LiveStatus } from '../../engine/LiveStatus';
import { format } from '../../shared/format';
import type { FieldErrors } from '../../shared/validation/field-errors';
import { ApiFailure } from '../../api/client';
import { login } from '../../api/user-auth';
import { sendOldLoginCode } from '../../api/old-flow';
import { useAlert } from '../../app/alert';
import { startSession } from '../../api/session';

const text = messages.oldLogin;
type Form = { email: string; password: string; code: string };

export default function OldLoginScreen() {
  const [data, setData] = useState<Partial<Form>>({});
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>();
  const alert = useAlert();
  const navigate = useNavigate();

  const sendCode = async () => {
    if (!data.email) return;
    setBusy(true);
    try {
      await sendOldLoginCode(data.email);
      setSentTo(data.email);
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields) setFieldErrors(failure.fields);
      else await alert(format(text.sendFailed, { detail: failure instanceof ApiFailure ? failure.message : messages.client.unknown }));
    } finally {
      setBusy(false);
    }
  };

  const submit = async (form: Form) => {
    setBusy(true);
    try {
      const { token, expires_in, ends_in } = await login(form);
      if (!token) return await alert(text.noToken);
      startSession(token, expires_in, ends_in);
      navigate('/', { replace: true });
    } catch (failure) {
      const network = !(failure instanceof ApiFailure) || failure.status <= 0;
      // A wrong password answers as a wrong code does (no password oracle, docs/decisions/015):
      // the member is asked to check all three.
      const rejected = failure instanceof ApiFailure && (failure.code === 'CODE_INVALID' || failure.code === 'LOGIN_FAILED');
      await alert(network ? text.network : rejected ? text.rejected : format(text.failed, { detail: failure.message }));
    } finally {
      setBusy(false);
    }
  };

  const complete = !!(data.email && data.password && data.code);
  return (
    <section className="card">
      <p className="lead">{text.lead}</p>
      <SchemaForm
        id="oldLoginForm"
        form={oldLoginForm}
        formData={data}
        onChange={setData}
        onSubmit={submit}
        serverErrors={fieldErrors}
        busy={busy}
        actions={
          <div className="actions">
            <button type="button" className="button button--secondary" disabled={busy || !data.email} onClick={() => void sendCode()}>
              {text.sendCode}
            </button>
            <button type="submit" className="button button--primary" disabled={busy || !complete}>
              {text.login}
            </button>
          </div>
        }
      >
        {sentTo && (
          <LiveStatus className="notice notice--info" lines={[format(text.codeSent, { email: sentTo })]} />
        )}
      </SchemaForm>
      <div className="links">
        <Link to={paths.login}>{text.newLogin}</Link>
      </div>
    </section>
  );
}
