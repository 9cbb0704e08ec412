// Contact (form id contactForm): the privacy notice and its agreement first, then the inquiry.
// A logged-in member's name and address are filled in and locked, and the agreement counts as
// given. What was typed is kept for the tab (a draft, no secrets) and comes back after a reload
// or a re-login, with a note saying so (docs/decisions/024).
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import * as privacyForm from 'virtual:form/contact-privacy';
import * as contactForm from 'virtual:form/contact';
import messages from '../../../messages/ja.json';
import privacy from '../../../messages/privacy.ja.json';
import { SchemaForm } from '../../engine/SchemaForm';
import { LiveStatus } from '../../engine/LiveStatus';
import { format } from '../../shared/format';
import type { FieldErrors } from '../../shared/validation/field-errors';
import type { MasterName, MasterOption } from '../../shared/api-types';
import { mastersOf } from '../../shared/validation/conditions';
import { normalise } from '../../shared/normalise';
import { ApiFailure } from '../../api/client';
import { getUserInfo } from '../../api/user-info';
import { getMasters } from '../../api/masters';
import { sendInquiry, type ContactPayload } from '../../api/contact';
import { useAlert } from '../../app/alert';
import { LegalDocument } from '../../app/LegalDocument';
import { token } from '../../api/session';
import { paths } from '../../app/paths.generated';
import { useOwnedDraft } from '../../app/use-session-draft';

const text = messages.contact;
type Inquiry = Omit<ContactPayload, 'privacy_checked' | 'agree_privacy'>;
const LOCKED = { last_name_kanji: { 'ui:readonly': true }, first_name_kanji: { 'ui:readonly': true }, email: { 'ui:readonly': true } };
/** The inquiry asks for no password or code; a field named password would never be kept anyway. */
const SECRETS = [] as const;
/** A visitor's draft belongs to no member. */
const VISITOR = '';

export default function ContactScreen() {
  const [member, setMember] = useState(false);
  const [agreement, setAgreement] = useState<{ agree_privacy?: boolean }>({});
  const { restoreFor, keep: keepDraft, clear: clearDraft } = useOwnedDraft<Inquiry>('contact', SECRETS);
  // A visitor's draft is theirs at once; a member's once their address is known (below).
  const [visitorDraft] = useState(() => (token() ? undefined : restoreFor(VISITOR, {})));
  const [inquiry, setInquiry] = useState<Partial<Inquiry>>(() => visitorDraft ?? {});
  const [restored, setRestored] = useState(!!visitorDraft);
  /** Whose draft this is, with what the form opened with; null until a member's info arrives. */
  const [owner, setOwner] = useState<{ id: string; opened: Partial<Inquiry> } | null>(() => (token() ? null : { id: VISITOR, opened: {} }));
  const [masters, setMasters] = useState<Record<string, MasterOption[]>>({});
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>();
  const alert = useAlert();
  const navigate = useNavigate();

  useEffect(() => {
    getMasters(mastersOf(contactForm.schema) as MasterName[]).then(setMasters, (error) => console.error(error));
    if (!token()) return;
    getUserInfo().then(
      (user) => {
        setMember(true);
        const opened = { last_name_kanji: String(user.last_name_kanji ?? ''), first_name_kanji: String(user.first_name_kanji ?? ''), email: user.email };
        const draft = restoreFor(user.email, opened);
        setInquiry((prev) => ({ ...(draft ?? prev), ...opened }));
        setRestored(!!draft);
        setOwner({ id: user.email, opened });
      },
      (failure) => console.error('user info failed; the form stays open to fill in', failure),
    );
    // Once, when the screen opens: the draft read then is the one to restore.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (owner) keepDraft(owner.id, inquiry, owner.opened);
  }, [keepDraft, owner, inquiry]);

  const agreed = member || agreement.agree_privacy === true;

  const submit = async (data: Inquiry) => {
    setBusy(true);
    try {
      const { ticket_no: ticketNo } = await sendInquiry({ ...normalise(contactForm.schema, data), privacy_checked: true, agree_privacy: true });
      clearDraft();
      await alert(ticketNo ? `${text.done}\n${format(text.doneTicket, { ticketNo })}` : text.done);
      navigate(token() ? paths.mypage : paths.login);
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.fields) setServerErrors(failure.fields);
      await alert(failure instanceof ApiFailure && failure.message ? failure.message : text.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card">
      {restored && (
        <LiveStatus className="notice notice--info" lines={[messages.session.draftRestored]} />
      )}
      {member ? (
        <p className="lead">{text.memberNote}</p>
      ) : (
        <>
          <p className="lead">{text.lead}</p>
          <LegalDocument id="privacy" text={privacy} level={2} />
          <SchemaForm id="contactPrivacy" form={privacyForm} formData={agreement} onChange={setAgreement} onSubmit={() => undefined} actions={<></>} />
        </>
      )}
      <SchemaForm
        id="contactForm"
        form={contactForm}
        formData={inquiry}
        onChange={setInquiry}
        onSubmit={submit}
        serverErrors={serverErrors}
        disabled={!agreed}
        busy={busy}
        masters={masters}
        uiOverrides={member ? LOCKED : undefined}
      />
    </section>
  );
}
