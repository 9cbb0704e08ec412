// The operator's own account: their passkeys (docs/decisions/031), which may stand in for the
// mailed code at login. Adding one asks this device's authenticator; removing asks first.
import { useState } from 'react';
import * as nameForm from 'virtual:form/admin-passkey-name';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import { format } from '../../../shared/format';
import type { PasskeyItem } from '../../../shared/admin-api';
import { adminCall } from '../../api';
import { formatDateTime } from '../../format';
import { ConfirmDialog, Done, Failure, Loading, useAction, useLoad } from '../../ui';

const supported = () => typeof window.PublicKeyCredential === 'function';

export default function AccountScreen() {
  const list = useLoad(() => adminCall<{ items: PasskeyItem[] }>('get', '/account/passkeys'), 'account-passkeys');
  const [name, setName] = useState<{ name?: string }>({});
  // A new form after each passkey added: the emptied name is a fresh field, not a missing one.
  const [formRound, setFormRound] = useState(0);
  const [removing, setRemoving] = useState<PasskeyItem>();
  const { busy, errors, failure, done, setDone, run } = useAction({ fallback: text.account.failed, clearErrors: true, settled: () => setRemoving(undefined) });
  const add = (value: { name?: string }) =>
    run(async () => {
      const [{ startRegistration }, optionsJSON] = await Promise.all([import('@simplewebauthn/browser'), adminCall<PublicKeyCredentialCreationOptionsJSON>('post', '/account/passkeys/options')]);
      const response = await startRegistration({ optionsJSON });
      await adminCall('post', '/account/passkeys', { body: { name: value.name, response } });
      setDone(format(text.account.added, { name: value.name ?? '' }));
      setName({});
      setFormRound((round) => round + 1);
      list.reload();
    });

  return (
    <>
      <p>{text.account.lead}</p>
      <Done message={done} />
      <Failure message={failure ?? list.error} />
      <section className="card" aria-labelledby="account-passkeys">
        <h2 id="account-passkeys">{text.account.listTitle}</h2>
        {list.loading && <Loading />}
        {list.data && list.data.items.length === 0 && <p>{text.account.empty}</p>}
        {list.data && list.data.items.length > 0 && (
          <table className="table">
            <caption className="visually-hidden">{text.account.listTitle}</caption>
            <thead>
              <tr>
                <th scope="col">{text.account.name}</th>
                <th scope="col">{text.account.createdAt}</th>
                <th scope="col">{text.account.lastUsedAt}</th>
                <th scope="col">{text.common.actions}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((passkey) => (
                <tr key={passkey.id}>
                  <td>{passkey.name}</td>
                  <td>{formatDateTime(passkey.created_at)}</td>
                  <td>{passkey.last_used_at ? formatDateTime(passkey.last_used_at) : text.account.neverUsed}</td>
                  <td className="row-actions">
                    <button type="button" className="button button--small" aria-label={format(text.account.removeLabel, { name: passkey.name })} onClick={() => setRemoving(passkey)}>
                      {text.account.remove}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card">
        <h2>{text.account.add}</h2>
        {supported() ? (
          <SchemaForm key={formRound} id="adminPasskeyNameForm" form={nameForm} formData={name} onChange={setName} onSubmit={add} serverErrors={errors} busy={busy} />
        ) : (
          <p className="notice notice--warning">{text.account.unsupported}</p>
        )}
      </section>
      <ConfirmDialog
        open={!!removing}
        title={text.account.remove}
        confirmLabel={text.account.remove}
        danger
        busy={busy}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() =>
          run(async () => {
            await adminCall('delete', `/account/passkeys/${encodeURIComponent(removing!.id)}`);
            setDone(format(text.account.removed, { name: removing!.name }));
            list.reload();
          })
        }
      >
        <p>{format(text.account.removeConfirm, { name: removing?.name ?? '' })}</p>
      </ConfirmDialog>
    </>
  );
}
