// My page's passkeys (mypage/passkeys, docs/decisions/031): the member's passkeys with their
// name, when each was added and last used, a way to remove each (after a confirmation), and a
// way to add one, named. Offered, never required: the password and code login stays as it is.
import { useCallback, useEffect, useRef, useState } from 'react';
import * as passkeyNameForm from 'virtual:form/passkey-name';
import messages from '../../../messages/ja.json';
import { Link } from '../../app/Link';
import { SchemaForm } from '../../engine/SchemaForm';
import { format } from '../../shared/format';
import { formatDateTime } from '../../shared/format-date';
import type { FieldErrors } from '../../shared/validation/field-errors';
import { ApiFailure } from '../../api/client';
import { addPasskey, listPasskeys, loadWebAuthn, passkeysSupported, removePasskey, type PasskeyItem } from '../../api/passkeys';
import { ModalFrame, returnFocusAfterDialog, useModalLayer } from '../../app/alert';
import { paths } from '../../app/paths.generated';

const text = messages.passkeys;
type List = { state: 'loading' } | { state: 'error' } | { state: 'ok'; items: PasskeyItem[] };

export default function PasskeysPage() {
  const [list, setList] = useState<List>({ state: 'loading' });
  const [name, setName] = useState<{ name?: string }>({});
  // A new form after each passkey added: the emptied name is a fresh field, not a missing one.
  const [formRound, setFormRound] = useState(0);
  const [errors, setErrors] = useState<FieldErrors>();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');
  const [removing, setRemoving] = useState<PasskeyItem | null>(null);
  const supported = passkeysSupported();

  const reload = useCallback(() => listPasskeys().then((items) => setList({ state: 'ok', items }), () => setList({ state: 'error' })), []);
  useEffect(() => {
    void reload();
    // The authenticator is asked right after the press; its code is ready by then.
    if (supported) void loadWebAuthn().catch(() => undefined);
  }, [reload, supported]);

  const add = async (value: { name?: string }) => {
    setBusy(true);
    setSaid('');
    setErrors(undefined);
    try {
      const added = await addPasskey(value.name ?? '');
      setName({});
      setFormRound((round) => round + 1);
      setSaid(format(text.added, { name: added.name }));
      await reload();
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields) setErrors(failure.fields);
      else setSaid(failure instanceof ApiFailure ? failure.message : text.addFailed);
    } finally {
      setBusy(false);
    }
  };

  const remove = async (passkey: PasskeyItem) => {
    setBusy(true);
    try {
      await removePasskey(passkey.id);
      setSaid(format(text.removed, { name: passkey.name }));
    } catch (failure) {
      setSaid(failure instanceof ApiFailure ? failure.message : text.removeFailed);
    } finally {
      setBusy(false);
      await reload();
    }
  };

  return (
    <>
      <p className="lead">{text.lead}</p>
      <p role="status" className={said ? 'notice notice--info' : undefined}>
        {said}
      </p>
      <section className="card" aria-labelledby="passkeys-title">
        <h2 id="passkeys-title" className="card__title">
          {text.listTitle}
        </h2>
        {list.state === 'loading' && <p className="loading">{text.loading}</p>}
        {list.state === 'error' && <p className="notice notice--error">{text.loadFailed}</p>}
        {list.state === 'ok' && list.items.length === 0 && <p>{text.empty}</p>}
        {list.state === 'ok' && list.items.length > 0 && (
          <ul className="passkeys">
            {list.items.map((passkey) => (
              <li key={passkey.id} className="passkeys__item">
                <h3 className="passkeys__name">{passkey.name}</h3>
                <dl className="details">
                  <dt>{text.createdAt}</dt>
                  <dd>{formatDateTime(passkey.created_at)}</dd>
                  <dt>{text.lastUsedAt}</dt>
                  <dd>{passkey.last_used_at ? formatDateTime(passkey.last_used_at) : text.neverUsed}</dd>
                </dl>
                <button type="button" className="button button--secondary" aria-label={format(text.removeLabel, { name: passkey.name })} disabled={busy} onClick={() => setRemoving(passkey)}>
                  {text.remove}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="passkey-add-title">
        <h2 id="passkey-add-title" className="card__title">
          {text.addTitle}
        </h2>
        {supported ? (
          <SchemaForm key={formRound} id="passkeyNameForm" form={passkeyNameForm} formData={name} onChange={setName} onSubmit={add} serverErrors={errors} busy={busy} />
        ) : (
          <p className="notice notice--warning">{text.unsupported}</p>
        )}
      </section>
      <div className="links">
        <Link to={paths.mypage}>{text.back}</Link>
      </div>
      {removing && (
        <RemoveDialog
          passkey={removing}
          onClose={(confirmed) => {
            setRemoving(null);
            if (confirmed) void remove(removing);
          }}
        />
      )}
    </>
  );
}

/** The remove button's confirmation, in the app's modal dialog (src/app/alert.tsx): Escape and cancel keep the passkey. */
function RemoveDialog({ passkey, onClose }: { passkey: PasskeyItem; onClose: (confirmed: boolean) => void }) {
  const layer = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const previous = useRef<Element | null>(typeof document === 'undefined' ? null : document.activeElement);
  useModalLayer(passkey, layer, box, cancel);
  const close = (confirmed: boolean) => {
    onClose(confirmed);
    returnFocusAfterDialog(previous.current);
  };
  return (
    <ModalFrame layer={layer} box={box} labelledBy="passkey-remove-title" describedBy="passkey-remove-message" onKeyDown={(event) => event.key === 'Escape' && close(false)}>
      <h2 id="passkey-remove-title" className="modal__title">
        {text.removeTitle}
      </h2>
      <p id="passkey-remove-message" className="modal__message">
        {format(text.removeConfirm, { name: passkey.name })}
      </p>
      <div className="actions">
        <button ref={cancel} type="button" className="button button--secondary" onClick={() => close(false)}>
          {text.removeNo}
        </button>
        <button type="button" className="button button--danger" onClick={() => close(true)}>
          {text.removeYes}
        </button>
      </div>
    </ModalFrame>
  );
}
