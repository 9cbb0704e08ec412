// A postal code input that fills the address field named in "ui:options": { "addressField" }
// when the code is found. An address the member typed is never overwritten silently: they are
// offered the found address instead. Several areas for one code: the member chooses, from
// buttons or, past CHOICE_BUTTONS of them, a labelled select. What the lookup found (or that it
// found nothing) is said in one polite live region beside the field, present from the start so
// that screen readers announce its changes; an address filled from a code with one town is said
// there too.
import { useEffect, useId, useRef, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import { engineContext } from '../form-context';
import BaseInputTemplate from '../templates/BaseInputTemplate';

const COMPLETE = /^(\d{7}|\d{3}-\d{4})$/;
/** More areas than this are offered in a select (one code has 66), not as a wall of buttons. */
const CHOICE_BUTTONS = 6;
type Status = 'idle' | 'found' | 'filled' | 'notFound' | 'failed';

export default function PostalCodeWidget(props: WidgetProps) {
  const { value, options, registry, id } = props;
  const ctx = engineContext(registry.formContext);
  const field = String(options.addressField ?? '');
  const [status, setStatus] = useState<Status>('idle');
  const [candidates, setCandidates] = useState<string[]>([]);
  const [picked, setPicked] = useState('');
  const lastFilled = useRef<string | undefined>(undefined);
  const statusId = `${id}-postal-status`;
  const selectId = `${useId()}-postal-select`;

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
        setPicked('');
        const current = ctx.valueOf(field);
        // One town filled into the address is said, as the member may not be looking at it.
        const fills = found.length === 1 && (!current || current === lastFilled.current);
        setStatus(fills ? 'filled' : found.length ? 'found' : 'notFound');
        if (fills) fill(found[0]);
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

  const choice = candidates.length > 1 ? messages.form.postalChoose : messages.form.postalSuggest;
  const said =
    status === 'notFound'
      ? messages.form.postalNotFound
      : status === 'failed'
        ? messages.form.postalFailed
        : status === 'filled'
          ? messages.form.postalFilled
          : candidates.length > 0
            ? choice
            : '';

  return (
    <>
      <BaseInputTemplate {...props} options={{ ...options, describedBy: said ? statusId : options.describedBy }} />
      <p id={statusId} className="field__help postal-status" role="status">
        {said}
      </p>
      {candidates.length > 0 && candidates.length <= CHOICE_BUTTONS && (
        <div className="postal-candidates" role="group" aria-label={choice}>
          {candidates.map((address, index) => (
            <button key={address} id={`${id}-candidate-${index}`} type="button" className="button button--small" onClick={() => fill(address)}>
              {address}
            </button>
          ))}
        </div>
      )}
      {candidates.length > CHOICE_BUTTONS && (
        <div className="postal-candidates postal-candidates--select" role="group" aria-label={choice}>
          <label htmlFor={selectId} className="postal-candidates__label">
            {messages.form.postalSelectLabel}
          </label>
          <select id={selectId} className="select" value={picked} onChange={(event) => setPicked(event.target.value)}>
            <option value="">{messages.form.choose}</option>
            {candidates.map((address) => (
              <option key={address} value={address}>
                {address}
              </option>
            ))}
          </select>
          <button type="button" className="button button--small" onClick={() => (picked ? fill(picked) : document.getElementById(selectId)?.focus())}>
            {messages.form.postalUse}
          </button>
        </div>
      )}
    </>
  );
}
