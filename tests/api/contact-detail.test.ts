// GET /v1/user/contact/:id: one of the calling member's inquiries in full (the whole question,
// status, dates and the operator's answer once given through the operator tool). Another
// member's inquiry, a visitor's, an unknown or a malformed id all answer the same 404.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, Harness, expectError, japaneseText, setUpOrFail, validContact } from '../support/api-harness';
import { operator } from '../operator/operator-support';

describe.each(DATABASES)('GET /v1/user/contact/:id ($name)', ({ kind }) => {
  let h: Harness;

  setUpOrFail(async () => {
    h = await Harness.start(kind);
  });
  afterAll(async () => {
    await h?.close();
  });

  async function member() {
    const m = await h.createMember(h.uniqueEmail('detail'), 'Detail-Pass-8!');
    const { token } = await h.loginWithCode(m);
    return { ...m, token };
  }

  /** Sends an inquiry as the member (or a visitor) and returns its id, read from the history. */
  async function send(token: string | undefined, email: string, content: string): Promise<{ id: string; ticketNo: string }> {
    const res = await h.contact(token, validContact(email, { purpose_detail: content }));
    expect(res.statusCode, res.body).toBe(200);
    const ticketNo = res.json<{ ticket_no: string }>().ticket_no;
    const row = await h.db.selectFrom('inquiries').select('id').where('ticket_no', '=', ticketNo).executeTakeFirstOrThrow();
    return { id: row.id, ticketNo };
  }

  it('the own inquiry in full: the whole question (which the list cuts), its status, and no answer yet', async () => {
    const m = await member();
    const question = japaneseText(180);
    const { id, ticketNo } = await send(m.token, m.email, question);
    const listed = (await h.contactList(m.token)).json<Array<{ id: string; subject: string }>>().find((item) => item.id === id);
    expect(listed?.subject.length).toBeLessThan(question.length); // the list shows the start only

    const res = await h.contactDetail(m.token, id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toEqual({
      id,
      ticket_no: ticketNo,
      category: validContact(m.email).inquiry_type,
      content: question,
      status: 'open',
      answer: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(Number.isNaN(Date.parse(String(body.created_at)))).toBe(false);
  });

  it('after the operator answers (npm run operator -- inquiries answer), the answer and the status are there; closed keeps it', async () => {
    const m = await member();
    const { id, ticketNo } = await send(m.token, m.email, japaneseText(40));
    const answer = `${japaneseText(30)}\n${japaneseText(20)}`;
    const run = await operator(h, 'inquiries', 'answer', ticketNo, '--message', answer);
    expect(run.code, run.stderr).toBe(0);
    let body = (await h.contactDetail(m.token, id)).json<{ status: string; answer: string | null }>();
    expect(body).toMatchObject({ status: 'answered', answer });
    expect((await operator(h, 'inquiries', 'close', ticketNo)).code).toBe(0);
    body = (await h.contactDetail(m.token, id)).json<{ status: string; answer: string | null }>();
    expect(body).toMatchObject({ status: 'closed', answer });
  });

  it("another member's inquiry, a visitor's, an unknown and a malformed id: the same 404, nothing of the inquiry", async () => {
    const owner = await member();
    const other = await member();
    const { id } = await send(owner.token, owner.email, japaneseText(50));
    const visitor = await send(undefined, other.email, japaneseText(50)); // a visitor using the other's address
    const answers = [
      await h.contactDetail(other.token, id),
      await h.contactDetail(other.token, visitor.id),
      await h.contactDetail(other.token, randomUUID()),
      await h.contactDetail(other.token, 'not-an-id'),
      await h.contactDetail(other.token, `${id}'--`),
    ];
    for (const res of answers) {
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body).not.toContain(id);
    }
    // the same body whichever it was: nothing tells an existing inquiry from none
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    // and the owner still gets it
    expect((await h.contactDetail(owner.token, id)).statusCode).toBe(200);
  });

  it('without a session: 401, never the inquiry', async () => {
    const m = await member();
    const { id } = await send(m.token, m.email, japaneseText(30));
    expectError(await h.contactDetail(undefined, id), 401, 'UNAUTHENTICATED');
  });
});
