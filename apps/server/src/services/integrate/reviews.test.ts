import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, mailOutbox, privateNetworks } from '@connect/db';
import {
  ZAuditLogResponse,
  ZManagementPrivateNetwork,
  ZManagementPrivateNetworksResponse,
  ZNotificationsResponse,
  ZPrivateNetworkRpcCheck,
  ZUserNetworksResponse,
  type TManagementPrivateNetworksResponse,
  type TUserNetwork,
} from '@connect/shared';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';

type Session = Awaited<ReturnType<typeof signInAs>>;
type Customer = Session & { accountId: string };

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Private-network review (issue 33 §4): the staff list, the RPC check run again, the decisions and what the owner sees. */
describe('private-network review (issue 33 §4)', () => {
  let t: TestContext;
  let chain: TestChain;
  let admin: Session;
  let otherAdmin: Session;
  let sales: Session;

  beforeAll(async () => {
    [t, chain] = await Promise.all([createTestApp(), startTestChain()]);
    [admin, otherAdmin, sales] = await Promise.all([
      signInAs(t, { role: 'QUANT_ADMIN' }),
      signInAs(t, { role: 'QUANT_ADMIN' }),
      signInAs(t, { role: 'QUANT_SALES' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), chain?.stop()]);
  });

  /** A customer whose account is named `organisationName`, as a sign-up and /user-details make it. */
  async function customer(organisationName = `Org ${Math.floor(Math.random() * 1e9)}`): Promise<Customer> {
    const session = await signInAs(t);
    const me = await t.app.inject({ method: 'GET', url: `/api/connect/user/${session.sub}`, headers: session.headers });
    const { accountId } = me.json<{ accountId: string }>();
    await t.db.db.update(accounts).set({ organisationName }).where(eq(accounts.id, accountId));
    return { ...session, accountId };
  }
  /** A network the customer submits (the submission's live check against the test chain). */
  async function submit(owner: Customer, name = `Chain ${Math.floor(Math.random() * 1e9)}`): Promise<TUserNetwork> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/integrate/private-networks',
      headers: owner.headers,
      payload: {
        name,
        networkType: 'production',
        chainId: chain.chainId,
        eip1559: true,
        numberOfBlocks: 6,
        url: chain.rpcUrl,
        tokenSymbol: 'ORC',
        tokenDecimals: 18,
        nodeType: 'archive',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<TUserNetwork>();
  }
  const call = (session: Session | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/integrate/management/private-networks${url}`,
      ...(session ? { headers: session.headers } : {}),
      ...(payload ? { payload } : {}),
    });
  const list = async (query: string): Promise<TManagementPrivateNetworksResponse> => {
    const res = await call(admin, 'GET', `?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZManagementPrivateNetworksResponse.parse(res.json());
  };
  const review = (session: Session, id: string, payload: object) => call(session, 'PUT', `/${id}/review`, payload);
  const ownNetworks = async (owner: Customer) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/integrate/v2/user-networks?networkType=private',
      headers: owner.headers,
    });
    return ZUserNetworksResponse.parse(res.json()).networks;
  };
  const bell = async (owner: Customer) => {
    await t.app.events.drain();
    const res = await t.app.inject({ method: 'GET', url: '/api/connect/notifications', headers: owner.headers });
    return ZNotificationsResponse.parse(res.json()).items;
  };
  const mailsTo = (email: string) => t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
  const auditOf = async (networkId: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/connect/management/audit-log?recordType=private_network&recordId=${networkId}`,
      headers: admin.headers,
    });
    return ZAuditLogResponse.parse(res.json()).entries;
  };

  it('is for administrators: no session 401, a customer or sales 403 on every call', async () => {
    const owner = await customer();
    const { id } = await submit(owner);
    const calls = [
      ['GET', ''],
      ['GET', `/${id}`],
      ['POST', `/${id}/rpc-check`],
      ['PUT', `/${id}/review`, { decision: 'APPROVE' }],
    ] as const;
    for (const [method, url, body] of calls) {
      expect((await call(null, method, url, body)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(owner, method, url, body)).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(sales, method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await ownNetworks(owner))[0]!.status).toBe('UNDER_REVIEW');
    expect((await call(admin, 'GET', `/${id}`)).statusCode).toBe(200);
  });

  it('lists the networks under review by default, oldest first, with every field, the account and the submitter', async () => {
    const org = `Review Org ${Date.now()}`;
    const owner = await customer(org);
    const first = await submit(owner, 'Queue first');
    const second = await submit(owner, 'Queue second');
    const found = await list(`searchTerm=${encodeURIComponent(org)}`);
    expect(found.networks.map((n) => n.id)).toEqual([first.id, second.id]);
    expect(found.totalItems).toBe(2);
    expect(found.networks[0]).toEqual({
      id: first.id,
      name: 'Queue first',
      chainId: chain.chainId,
      status: 'UNDER_REVIEW',
      environment: 'production',
      url: chain.rpcUrl,
      eip1559: true,
      numberOfBlocks: 6,
      tokenSymbol: 'ORC',
      tokenDecimals: 18,
      nodeType: 'archive',
      submittedAt: first.private!.submittedAt,
      reviewedAt: null,
      reviewNote: null,
      reviewedBy: null,
      removalRequestedAt: null,
      removedAt: null,
      account: {
        accountId: owner.accountId,
        organisationName: org,
        status: 'ACTIVE',
        owner: { userId: owner.sub, email: owner.email, name: null },
      },
      submittedBy: { userId: owner.sub, email: owner.email, name: null },
    });
    // The same network alone, for the details panel.
    expect(ZManagementPrivateNetwork.parse((await call(admin, 'GET', `/${first.id}`)).json())).toEqual(
      found.networks[0],
    );

    // Sorted by name descending; the next page from the cursor.
    const byName = await list(`searchTerm=${encodeURIComponent(org)}&sort=name:desc&size=5`);
    expect(byName.networks.map((n) => n.name)).toEqual(['Queue second', 'Queue first']);
    // The exact total of the status without a search; the counts of every status for the tabs.
    const all = await list('');
    expect(all.totalItems).toBe(all.statusCounts.UNDER_REVIEW);
    expect(all.statusCounts.UNDER_REVIEW).toBeGreaterThanOrEqual(2);
    expect(Object.keys(all.statusCounts).sort()).toEqual(
      ['ACTIVE', 'REJECTED', 'REMOVAL_REQUESTED', 'REMOVED', 'UNDER_REVIEW'].sort(),
    );
  });

  it('searches by network name, chain id, organisation and the submitter’s email, and filters by status', async () => {
    const owner = await customer(`Searchable Ltd ${Date.now()}`);
    const network = await submit(owner, `Needle ${Date.now()}`);
    const ids = async (query: string) => (await list(`${query}&size=100`)).networks.map((n) => n.id);
    expect(await ids(`searchTerm=${encodeURIComponent(network.network.toLowerCase())}`)).toEqual([network.id]);
    expect(await ids(`searchTerm=${owner.email.toUpperCase()}`)).toEqual([network.id]);
    expect(await ids(`searchTerm=searchable%20ltd`)).toContain(network.id);
    expect(await ids(`searchTerm=${chain.chainId}`)).toContain(network.id);
    // LIKE's wildcards are text.
    expect(await ids('searchTerm=%25%25%25')).toEqual([]);
    expect(await ids(`status=ACTIVE&searchTerm=${owner.email}`)).toEqual([]);
    expect((await call(admin, 'GET', '?status=PENDING')).statusCode).toBe(400);
    expect((await call(admin, 'GET', '?sort=chainId:asc')).statusCode).toBe(400);
  });

  it('runs the live RPC check again on demand and changes nothing', async () => {
    const owner = await customer();
    const network = await submit(owner);
    const passed = await call(admin, 'POST', `/${network.id}/rpc-check`);
    expect(passed.statusCode, passed.body).toBe(200);
    expect(ZPrivateNetworkRpcCheck.parse(passed.json())).toMatchObject({
      networkId: network.id,
      url: chain.rpcUrl,
      isPassed: true,
      isReachable: true,
      expectedChainId: chain.chainId,
      chainId: chain.chainId,
      expectedEip1559: true,
      eip1559: true,
      problems: [],
    });
    expect(passed.json().latestBlock).toBeGreaterThanOrEqual(0);

    // The node now reports another chain id than the network's: the check says so, under chainId.
    await t.db.db.update(privateNetworks).set({ chainId: 7 }).where(eq(privateNetworks.id, network.id));
    const mismatch = ZPrivateNetworkRpcCheck.parse((await call(admin, 'POST', `/${network.id}/rpc-check`)).json());
    expect(mismatch).toMatchObject({ isPassed: false, isReachable: true, chainId: chain.chainId, expectedChainId: 7 });
    expect(mismatch.problems.map((p) => p.name)).toEqual(['chainId']);

    // The node is gone: not reachable, under url.
    await t.db.db
      .update(privateNetworks)
      .set({ rpcUrl: 'http://127.0.0.1:1/' })
      .where(eq(privateNetworks.id, network.id));
    const gone = ZPrivateNetworkRpcCheck.parse((await call(admin, 'POST', `/${network.id}/rpc-check`)).json());
    expect(gone).toMatchObject({
      isPassed: false,
      isReachable: false,
      chainId: null,
      latestBlock: null,
      eip1559: null,
    });
    expect(gone.problems.map((p) => p.name)).toEqual(['url']);

    expect((await ownNetworks(owner))[0]!.status).toBe('UNDER_REVIEW');
    expect(await auditOf(network.id)).toEqual([]);
    expect((await call(admin, 'POST', `/${UNKNOWN}/rpc-check`)).statusCode).toBe(404);
    expect((await call(admin, 'POST', '/not-a-uuid/rpc-check')).statusCode).toBe(400);
  });

  it('approves: the owner sees ACTIVE on My networks, gets a bell notice and an email; audited', async () => {
    const owner = await customer();
    const network = await submit(owner, 'Approved chain');
    const res = await review(admin, network.id, { decision: 'APPROVE', note: 'Archive node checked.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZManagementPrivateNetwork.parse(res.json())).toMatchObject({
      status: 'ACTIVE',
      reviewNote: 'Archive node checked.',
      reviewedBy: admin.email,
    });

    const [own] = await ownNetworks(owner);
    expect(own).toMatchObject({ id: network.id, status: 'ACTIVE', private: { reviewNote: 'Archive node checked.' } });
    expect(own!.activatedDate).not.toBeNull();
    const notices = await bell(owner);
    expect(notices.map((n) => [n.kind, n.title, n.body, n.link])).toEqual([
      [
        'network.review_decided',
        'Private network approved',
        'Approved chain was approved and is active. Note: Archive node checked.',
        '/my-networks',
      ],
    ]);
    // Emailed although the owner never switched email notifications on: they wait for this answer.
    const mails = await mailsTo(owner.email);
    expect(mails.map((m) => m.subject)).toEqual(['Private network approved']);
    expect(mails[0]!.textBody).toContain('Approved chain was approved and is active.');
    expect(mails[0]!.textBody).toContain('http://localhost/my-networks');

    const [entry, ...more] = await auditOf(network.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'PRIVATE_NETWORK_APPROVED',
      outcome: 'DONE',
      actorEmail: admin.email,
      before: { name: 'Approved chain', accountId: owner.accountId, status: 'UNDER_REVIEW', reviewNote: null },
      after: {
        name: 'Approved chain',
        accountId: owner.accountId,
        status: 'ACTIVE',
        reviewNote: 'Archive node checked.',
      },
    });
    expect(entry!.requestId).not.toBeNull();

    // Decided: another decision is a 409 with its code, and nothing more is written.
    const again = await review(admin, network.id, { decision: 'REJECT', note: 'Too late.' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'NETWORK_NOT_UNDER_REVIEW' });
    expect(again.json().detail).toContain('ACTIVE');
    expect(await auditOf(network.id)).toHaveLength(1);
  });

  it('rejects only with a reason; the owner sees REJECTED with the reason; audited', async () => {
    const owner = await customer();
    const network = await submit(owner, 'Rejected chain');
    for (const body of [{ decision: 'REJECT' }, { decision: 'REJECT', note: '   ' }]) {
      const noReason = await review(admin, network.id, body);
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json()).toMatchObject({
        code: 'INVALID_REQUEST',
        invalidParams: [{ name: 'note', reason: 'Please say why the network is rejected.' }],
      });
    }
    expect((await review(admin, network.id, { decision: 'MAYBE' })).statusCode).toBe(400);
    expect((await review(admin, UNKNOWN, { decision: 'REJECT', note: 'x' })).statusCode).toBe(404);

    const res = await review(admin, network.id, { decision: 'REJECT', note: 'The node is not an archive node.' });
    expect(res.statusCode, res.body).toBe(200);
    const [own] = await ownNetworks(owner);
    expect(own).toMatchObject({ status: 'REJECTED', private: { reviewNote: 'The node is not an archive node.' } });
    expect(own!.activatedDate).toBeNull();
    expect((await bell(owner)).map((n) => n.body)).toEqual([
      'Rejected chain was rejected. Reason: The node is not an archive node.',
    ]);
    expect((await mailsTo(owner.email)).map((m) => m.subject)).toEqual(['Private network rejected']);
    expect(await auditOf(network.id)).toMatchObject([
      {
        action: 'PRIVATE_NETWORK_REJECTED',
        before: { status: 'UNDER_REVIEW' },
        after: { status: 'REJECTED', reviewNote: 'The node is not an archive node.' },
      },
    ]);
    const rejected = await list(`status=REJECTED&searchTerm=${owner.email}`);
    expect(rejected.networks.map((n) => [n.id, n.reviewedBy])).toEqual([[network.id, admin.email]]);
  });

  it('completes a requested removal only; a removal asked during the review wins over a late decision', async () => {
    const owner = await customer();
    const network = await submit(owner);
    const notRequested = await review(admin, network.id, { decision: 'COMPLETE_REMOVAL' });
    expect(notRequested.statusCode).toBe(409);
    expect(notRequested.json().code).toBe('NETWORK_NOT_REMOVABLE');
    const asked = await t.app.inject({
      method: 'DELETE',
      url: '/api/integrate/private-networks',
      headers: owner.headers,
      payload: { id: network.id },
    });
    expect(asked.json()).toMatchObject({ status: 'REMOVAL_REQUESTED' });
    expect((await review(admin, network.id, { decision: 'APPROVE' })).json().code).toBe('NETWORK_NOT_UNDER_REVIEW');
    const queued = await list(`status=REMOVAL_REQUESTED&searchTerm=${owner.email}`);
    expect(queued.networks.map((n) => n.id)).toEqual([network.id]);

    const done = await review(admin, network.id, { decision: 'COMPLETE_REMOVAL' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'REMOVED' });
    expect(done.json().removedAt).not.toBeNull();
    expect((await ownNetworks(owner))[0]!.status).toBe('REMOVED');
    expect(await auditOf(network.id)).toMatchObject([
      {
        action: 'PRIVATE_NETWORK_REMOVAL_COMPLETED',
        before: { status: 'REMOVAL_REQUESTED' },
        after: { status: 'REMOVED' },
      },
    ]);
  });

  it('applies exactly one of two decisions fired together', async () => {
    const owner = await customer();
    const network = await submit(owner);
    const answers = await Promise.all([
      review(admin, network.id, { decision: 'APPROVE' }),
      review(otherAdmin, network.id, { decision: 'REJECT', note: 'Second opinion.' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const loser = answers.find((a) => a.statusCode === 409)!;
    expect(loser.json().code).toBe('NETWORK_NOT_UNDER_REVIEW');
    const winner = answers.find((a) => a.statusCode === 200)!.json<{ status: string }>();
    expect((await ownNetworks(owner))[0]!.status).toBe(winner.status);
    expect(await auditOf(network.id)).toHaveLength(1);
    expect(await bell(owner)).toHaveLength(1);
    expect(await mailsTo(owner.email)).toHaveLength(1);
  });

  it('keeps a network of a closed account in the queue, and staff can still decide it', async () => {
    const owner = await customer();
    const network = await submit(owner);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/connect/management/user',
      headers: admin.headers,
      payload: { userId: owner.sub },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const [listed] = (await list(`searchTerm=${owner.email}`)).networks;
    expect(listed).toMatchObject({ id: network.id, status: 'UNDER_REVIEW', account: { status: 'REMOVED' } });
    const res = await review(admin, network.id, { decision: 'REJECT', note: 'The account is closed.' });
    expect(res.statusCode, res.body).toBe(200);
  });
});
