// Operators (admin): the list, add one (a set-up link is mailed), disable one (their sessions
// end), send a new set-up link.
import { useState } from 'react';
import * as addForm from 'virtual:form/admin-operator-add';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import { format } from '../../../shared/format';
import type { NewOperator, OperatorItem, OperatorList } from '../../../shared/admin-api';
import { adminCall } from '../../api';
import { formatDateTime, label } from '../../format';
import { useSession } from '../../session';
import { ConfirmDialog, Done, Failure, Loading, useAction, useDraft, useLoad } from '../../ui';


export default function OperatorsScreen() {
  const { operator: me } = useSession();
  const list = useLoad(() => adminCall<OperatorList>('get', '/operators'), 'operators');
  const draft = useDraft<NewOperator>('operator-add', { role: 'secretariat' });
  const [disabling, setDisabling] = useState<OperatorItem>();
  const { busy, errors, failure, done, setDone, run } = useAction({ settled: () => setDisabling(undefined) });
  return (
    <>
      <Done message={done} />
      <Failure message={failure ?? list.error} />
      {list.loading && <Loading />}
      {list.data && (
        <table className="table">
          <caption className="visually-hidden">{text.operators.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{text.fields.name}</th>
              <th scope="col">{text.fields.email}</th>
              <th scope="col">{text.fields.role}</th>
              <th scope="col">{text.fields.status}</th>
              <th scope="col">{text.fields.createdAt}</th>
              <th scope="col">{text.common.actions}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((row) => (
              <tr key={row.id}>
                <td>{row.name}</td>
                <td>{row.email}</td>
                <td>{label('roles', row.role)}</td>
                <td>{label('operatorStatus', row.status)}</td>
                <td>{formatDateTime(row.created_at)}</td>
                <td className="row-actions">
                  {row.status !== 'disabled' && row.id !== me?.id && (
                    <button type="button" className="button button--small" onClick={() => setDisabling(row)}>
                      {text.operators.disable}
                    </button>
                  )}
                  {row.status !== 'disabled' && (
                    <button
                      type="button"
                      className="button button--small"
                      disabled={busy}
                      onClick={() =>
                        void run(async () => {
                          await adminCall('post', `/operators/${encodeURIComponent(row.id)}/setup-link`);
                          setDone(format(text.operators.linkSent, { email: row.email }));
                        })
                      }
                    >
                      {text.operators.newLink}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <section className="card">
        <h2>{text.operators.add}</h2>
        <SchemaForm
          id="adminOperatorAddForm"
          form={addForm}
          formData={draft.data}
          onChange={draft.change}
          serverErrors={errors}
          busy={busy}
          onSubmit={(value: NewOperator) =>
            run(async () => {
              await adminCall('post', '/operators', { body: value });
              setDone(format(text.operators.added, { email: value.email }));
              draft.reset();
              list.reload();
            })
          }
        />
      </section>
      <ConfirmDialog
        open={!!disabling}
        title={text.operators.confirmDisable}
        confirmLabel={text.operators.doDisable}
        danger
        busy={busy}
        onCancel={() => setDisabling(undefined)}
        onConfirm={() =>
          run(async () => {
            await adminCall('post', `/operators/${encodeURIComponent(disabling!.id)}/disable`);
            setDone(format(text.operators.disabled, { name: disabling!.name }));
            list.reload();
          })
        }
      >
        <p>{format(text.operators.disableLead, { name: disabling?.name ?? '', email: disabling?.email ?? '' })}</p>
      </ConfirmDialog>
    </>
  );
}
