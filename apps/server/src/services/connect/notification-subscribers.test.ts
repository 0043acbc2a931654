import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventDeliveries,
  mailOutbox,
  networks,
  notifications,
  notificationSettings,
  outboxEvents,
  users,
} from '@connect/db';
import { ZNotificationsResponse } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import type { DomainEvents } from '../../events/catalogue.ts';
import { settleSandboxCheck } from './testing.ts';

type Member = { id: string; email: string };

/** Events in, notifications and emails out: once per user and event, emails only to those who opted in. */
describe('notification subscribers', () => {
  let t: TestContext;
  let networkId: string;
  beforeAll(async () => {
    t = await createTestApp({ KYC_SANDBOX_DELAY_MS: '3600000' });
    const [network] = await t.db.db
      .select({ id: networks.id })
      .from(networks)
      .where(eq(networks.code, 'ethereum-testnet'));
    networkId = network!.id;
  });
  afterAll(() => t?.close());

  /** An account with members: the first signed in, the others added to the same account. */
  async function account(options: { members?: number; emailEnabled?: boolean[]; removed?: number } = {}) {
    const first = await signInAs(t);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/connect/user/${first.sub}`, headers: first.headers })).statusCode,
    ).toBe(200);
    const [row] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, first.sub));
    const accountId = row!.accountId;
    const members: Member[] = [{ id: first.sub, email: first.email }];
    for (let i = 1; i < (options.members ?? 1); i++) {
      const member = { id: randomUUID(), email: `member-${randomUUID()}@example.com` };
      await t.db.db
        .insert(users)
        .values({ ...member, accountId, role: 'INDIVIDUAL', status: i === options.removed ? 'REMOVED' : 'ACTIVE' });
      members.push(member);
    }
    for (const [index, emailEnabled] of (options.emailEnabled ?? []).entries()) {
      await t.db.db.insert(notificationSettings).values({ userId: members[index]!.id, emailEnabled });
    }
    return { accountId, members, session: first };
  }

  const notificationsOf = (userId: string) =>
    t.db.db.select().from(notifications).where(eq(notifications.userId, userId));
  const mailTo = (email: string) => t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
  const tokenFacts = (accountId: string, createdBy: string | null) => ({
    accountId,
    tokenId: randomUUID(),
    networkId,
    createdBy,
    name: 'Ada Coin',
    unit: 'ADA',
    tokenType: 'QRC20' as const,
    tierType: 'base' as const,
  });
  async function emitAndDrain<K extends keyof DomainEvents>(type: K, payload: DomainEvents[K]) {
    const id = await t.app.events.emit(t.db.db, type, payload);
    await t.app.events.drain();
    return id;
  }

  it('tells the token’s creator that its deployment failed, with the reason and a link, and emails them when opted in', async () => {
    const { accountId, members, session } = await account({ members: 2, emailEnabled: [true, true] });
    const [creator, colleague] = members as [Member, Member];
    const failed = { ...tokenFacts(accountId, creator.id), reason: 'The node refused the transaction: out of gas' };
    const eventId = await emitAndDrain('token.failed', failed);

    const [notice, ...more] = await notificationsOf(creator.id);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      accountId,
      kind: 'token.failed',
      title: 'Token deployment failed',
      body: 'Ada Coin (ADA) could not be deployed on Ethereum Testnet: The node refused the transaction: out of gas. You have not been charged for it.',
      link: `/quant-flows/token-flow/qrc20/base?id=${failed.tokenId}`,
      eventId,
      readAt: null,
    });
    expect(await notificationsOf(colleague.id)).toEqual([]);
    const [mail, ...moreMail] = await mailTo(creator.email);
    expect(moreMail).toEqual([]);
    expect(mail).toMatchObject({
      kind: 'NOTIFICATION',
      subject: 'Token deployment failed',
      dedupeKey: `event:${eventId}:${creator.id}`,
    });
    expect(mail!.textBody).toContain(notice!.body);
    expect(mail!.textBody).toContain(`http://localhost${notice!.link}`);
    expect(await mailTo(colleague.email)).toEqual([]);

    // The bell shows it to the creator.
    const bell = await t.app.inject({ method: 'GET', url: '/api/connect/notifications', headers: session.headers });
    expect(ZNotificationsResponse.parse(bell.json())).toMatchObject({ unread: 1, items: [{ id: notice!.id }] });
  });

  it('tells every member who is still in the account when the token has no creator, and emails only those who opted in', async () => {
    const { accountId, members } = await account({ members: 3, emailEnabled: [false, true, true], removed: 2 });
    const [first, second, removed] = members as [Member, Member, Member];
    await emitAndDrain('token.failed', { ...tokenFacts(accountId, null), reason: 'Lost.' });

    expect((await notificationsOf(first.id)).map((n) => n.title)).toEqual(['Token deployment failed']);
    expect((await notificationsOf(second.id)).map((n) => n.title)).toEqual(['Token deployment failed']);
    expect(await notificationsOf(removed.id)).toEqual([]);
    expect(await mailTo(first.email)).toEqual([]);
    expect(await mailTo(second.email)).toHaveLength(1);
    expect(await mailTo(removed.email)).toEqual([]);
  });

  it('notifies and mails once, however often the event is drained or delivered', async () => {
    const { accountId, members } = await account({ emailEnabled: [true] });
    const [user] = members as [Member];
    const eventId = await emitAndDrain('token.deployed', {
      ...tokenFacts(accountId, user.id),
      status: 'ACTIVE',
      contractAddress: '0x00000000000000000000000000000000000000aa',
      creditsCharged: 50,
    });
    await t.app.events.drain();
    // Delivered again from scratch: the node lost its records (the worst case of at least once).
    await t.db.db.delete(eventDeliveries).where(eq(eventDeliveries.eventId, eventId));
    await t.db.db
      .update(outboxEvents)
      .set({ dispatchedAt: null, lockedUntil: null })
      .where(eq(outboxEvents.id, eventId));
    expect(await t.app.events.drain()).toBe(1);

    const notes = await notificationsOf(user.id);
    expect(notes.map((n) => [n.title, n.body])).toEqual([
      [
        'Token deployed',
        'Ada Coin (ADA) is deployed on Ethereum Testnet at 0x00000000000000000000000000000000000000aa.',
      ],
    ]);
    expect(await mailTo(user.email)).toHaveLength(1);
  });

  it('says a deployed token is not paid when the credits did not cover it', async () => {
    const { accountId, members } = await account();
    await emitAndDrain('token.deployed', {
      ...tokenFacts(accountId, members[0]!.id),
      status: 'UNPAID',
      contractAddress: '0x00000000000000000000000000000000000000bb',
      creditsCharged: 0,
    });
    const [notice] = await notificationsOf(members[0]!.id);
    expect(notice).toMatchObject({ kind: 'token.deployed', title: 'Token deployed, not paid' });
    expect(notice!.body).toContain('your credits did not cover it');
  });

  it('tells the submitter of a private network the review’s decision, with the note', async () => {
    const { accountId, members } = await account({ members: 2 });
    const [submitter, colleague] = members as [Member, Member];
    const decided = { accountId, networkId: randomUUID(), networkName: 'Acme chain', requestedBy: submitter.id };
    await emitAndDrain('network.review_decided', { ...decided, decision: 'APPROVED', note: null });
    await emitAndDrain('network.review_decided', { ...decided, decision: 'REJECTED', note: 'Not an archive node.' });

    expect((await notificationsOf(submitter.id)).map((n) => [n.kind, n.title, n.body, n.link]).sort()).toEqual([
      ['network.review_decided', 'Private network approved', 'Acme chain was approved and is active.', '/my-networks'],
      [
        'network.review_decided',
        'Private network rejected',
        'Acme chain was rejected. Reason: Not an archive node.',
        '/my-networks',
      ],
    ]);
    expect(await notificationsOf(colleague.id)).toEqual([]);
  });

  it('tells a user whose identity check came back clear, through the real check', async () => {
    const { session } = await account({ emailEnabled: [true] });
    expect(await settleSandboxCheck(t, session, { documentFirstName: 'Ada', outcome: 'clear' })).toBe('VERIFIED');
    await t.app.events.drain();

    const res = await t.app.inject({ method: 'GET', url: '/api/connect/notifications', headers: session.headers });
    const list = ZNotificationsResponse.parse(res.json());
    expect(list.unread).toBe(1);
    expect(list.items.map((n) => [n.kind, n.title, n.link])).toEqual([
      ['identity.verified', 'Identity verified', '/my-account/kyc'],
    ]);
    expect((await mailTo(session.email)).map((m) => m.subject)).toEqual(['Identity verified']);
  });
});
