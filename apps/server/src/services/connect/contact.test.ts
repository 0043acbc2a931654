import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactRequests, mailOutbox } from '@connect/db';
import { ZContactReceipt, ZProblem } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { contactReference } from './contact-service.ts';

const SUPPORT_EMAIL = 'team@connect.test';

const SUPPORT = {
  name: 'Ada Lovelace',
  email: 'Ada@Example.com',
  company: 'Analytical Engines Ltd',
  subject: 'Client secret lost',
  description: 'I did not copy the client secret of my application. How do I get a new one?',
};

const AUTHORISE = {
  name: 'Grace Hopper',
  email: 'grace@example.com',
  company: 'Compilers Inc',
  description: 'We would like to approve payments from our treasury with Authorise.',
};

describe('connect service: contact requests', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ SUPPORT_EMAIL });
  });
  afterAll(() => t?.close());

  const post = (url: string, payload: unknown, headers?: { authorization: string }) =>
    t.app.inject({
      method: 'POST',
      url: `/api/connect${url}`,
      payload: payload as object,
      ...(headers ? { headers } : {}),
    });

  const rowsOf = (userId: string) => t.db.db.select().from(contactRequests).where(eq(contactRequests.userId, userId));
  const teamMail = () => t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, SUPPORT_EMAIL));

  it.each([
    ['/contact-us-form', SUPPORT],
    ['/contact-us-authorise', AUTHORISE],
  ])('%s answers 401 without a token and stores nothing', async (url, payload) => {
    const before = (await t.db.db.select().from(contactRequests)).length;
    const res = await post(url, payload);
    expect(res.statusCode).toBe(401);
    expect(ZProblem.parse(res.json()).status).toBe(401);
    expect(await t.db.db.select().from(contactRequests)).toHaveLength(before);
  });

  it('stores a support enquiry with the caller, emails the team and answers a reference', async () => {
    const session = await signInAs(t);
    const res = await post('/contact-us-form', SUPPORT, session.headers);
    expect(res.statusCode).toBe(200);
    const receipt = ZContactReceipt.parse(res.json());
    expect(receipt.reference).toMatch(/^ENQ-[0-9A-F]{8}$/);

    const rows = await rowsOf(session.sub);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      kind: 'SUPPORT',
      userId: session.sub,
      name: SUPPORT.name,
      email: 'ada@example.com',
      company: SUPPORT.company,
      subject: SUPPORT.subject,
      description: SUPPORT.description,
    });
    expect(contactReference(row.id)).toBe(receipt.reference);
    expect(receipt.receivedAt).toBe(row.createdAt.toISOString());

    const mail = (await teamMail()).filter((m) => m.subject.includes(receipt.reference));
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: 'CONTACT_REQUEST' });
    expect(mail[0]!.subject).toContain(SUPPORT.subject);
    expect(mail[0]!.textBody).toContain(SUPPORT.description);
    expect(mail[0]!.textBody).toContain('ada@example.com');
    expect(mail[0]!.textBody).toContain(session.email);
  });

  it('stores an authorise enquiry as AUTHORISE and emails the team', async () => {
    const session = await signInAs(t);
    const res = await post('/contact-us-authorise', AUTHORISE, session.headers);
    expect(res.statusCode).toBe(200);
    const receipt = ZContactReceipt.parse(res.json());

    const rows = await rowsOf(session.sub);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'AUTHORISE', company: AUTHORISE.company, subject: null });
    expect(contactReference(rows[0]!.id)).toBe(receipt.reference);

    const mail = (await teamMail()).filter((m) => m.subject.includes(receipt.reference));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain('Authorise enquiry');
    expect(mail[0]!.textBody).toContain(AUTHORISE.description);
  });

  it('stores a plan enquiry (current plan, no subject) as PLAN and emails the team the plan', async () => {
    const session = await signInAs(t);
    const { subject: _subject, ...withoutSubject } = SUPPORT;
    const res = await post(
      '/contact-us-form',
      { ...withoutSubject, currentPlan: 'Trial', description: 'Can we have more mainnets on the annual plan?' },
      session.headers,
    );
    expect(res.statusCode).toBe(200);
    const receipt = ZContactReceipt.parse(res.json());

    const rows = await rowsOf(session.sub);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'PLAN', currentPlan: 'Trial', subject: 'Plan enquiry' });

    const mail = (await teamMail()).filter((m) => m.subject.includes(receipt.reference));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain('Plan enquiry');
    expect(mail[0]!.textBody).toContain('Current plan: Trial');
    expect(mail[0]!.textBody).toContain('Can we have more mainnets on the annual plan?');
  });

  it('keeps a support enquiry without a current plan as SUPPORT, with no plan stored', async () => {
    const session = await signInAs(t);
    expect((await post('/contact-us-form', SUPPORT, session.headers)).statusCode).toBe(200);
    expect((await rowsOf(session.sub))[0]).toMatchObject({ kind: 'SUPPORT', currentPlan: null });
  });

  it.each([
    ['/contact-us-form', 'subject', { ...SUPPORT, subject: '  ' }],
    ['/contact-us-form', 'subject', { ...SUPPORT, subject: undefined }],
    ['/contact-us-form', 'email', { ...SUPPORT, email: 'not-an-email' }],
    ['/contact-us-authorise', 'company', { ...AUTHORISE, company: undefined }],
    ['/contact-us-authorise', 'description', { ...AUTHORISE, description: 'x'.repeat(2001) }],
  ])('%s refuses an invalid %s with invalidParams and writes nothing', async (url, field, payload) => {
    const session = await signInAs(t);
    const mailBefore = (await teamMail()).length;
    const res = await post(url, payload, session.headers);
    expect(res.statusCode).toBe(400);
    const problem = ZProblem.parse(res.json());
    expect(problem.invalidParams?.map((p) => p.name)).toContain(field);
    expect(await rowsOf(session.sub)).toEqual([]);
    expect(await teamMail()).toHaveLength(mailBefore);
  });
});
