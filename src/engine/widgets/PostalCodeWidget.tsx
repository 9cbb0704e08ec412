// A postal code input that fills the address field named in "ui:options": { "addressField" }
// when the code is found. An address the member typed is never overwritten silently: they are
// offered the found address instead. Several areas for one code: the member chooses.
import { useEffect, useRef, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import { engineContext } from '../form-context';
import BaseInputTemplate from '../templates/BaseInputTemplate';

const COMPLETE = /^(\d{7}|\d{3}-\d{4})$/;
type Status = 'idle' | 'found' | 'notFound' | 'failed';

export default function PostalCodeWidget(props: WidgetProps) {
  const { value, options, registry, id } = props;
  const ctx = engineContext(registry.formContext);
  const field = String(options.addressField ?? '');
  const [status, setStatus] = useState<Status>('idle');
  const [candidates, setCandidates] = useState<string[]>([]);
  const lastFilled = useRef<string | undefined>(undefined);

  const fill = (address: string) => {
    ctx?.patch({ [field]: address });
    lastFilled.current = address;
    setCandidates([]);
  };

  useEffect(() => {
    const zip = typeof value === 'string' ? value : '';
    if (!ctx || !field || !COMPLETE.test(zip)) {
      setStatus('idle');
      setCandidates([]);
      return;
    }
    let live = true;
    ctx.postalLookup(zip).then(
      (found) => {
        if (!live) return;
        setStatus(found.length ? 'found' : 'notFound');
        const current = ctx.valueOf(field);
        if (found.length === 1 && (!current || current === lastFilled.current)) fill(found[0]);
        // Nothing to offer when the typed address already begins with what was found.
        else setCandidates(found.filter((address) => typeof current !== 'string' || !current.startsWith(address)));
      },
      () => live && setStatus('failed'),
    );
    return () => {
      live = false;
    };
    // Looks up again only when the code changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);

  return (
    <>
      <BaseInputTemplate {...props} />
      {status === 'notFound' && <p className="field__help" role="status">{messages.form.postalNotFound}</p>}
      {status === 'failed' && <p className="field__help" role="status">{messages.form.postalFailed}</p>}
      {candidates.length > 0 && (
        <div className="postal-candidates" role="group" aria-label={candidates.length > 1 ? messages.form.postalChoose : messages.form.postalSuggest}>
          <p className="field__help">{candidates.length > 1 ? messages.form.postalChoose : messages.form.postalSuggest}</p>
          {candidates.map((address, index) => (
            <button key={address} id={`${id}-candidate-${index}`} type="button" className="button button--small" onClick={() => fill(address)}>
              {address}
            </button>
          ))}
        </div>
      )}
    </>
  );
}
