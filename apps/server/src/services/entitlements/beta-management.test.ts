import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, betaInvitations, betaOptins } from '@connect/db';
import { ZBetaParticipant, ZBetaParticipantList, ZManagedBetaFeature, ZManagedBetaFeatureList } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { newAppUser } from '../application-manager/testing.ts';
import { betaCalls, type Caller } from './testing.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const BASE = '/management/beta-features';

describe('Connect Beta (issue 35 §1): the staff catalogue, its participants and invitations', () => {
  let t: TestContext;
  let admin: Caller & { sub: string; email: string };
  let beta: ReturnType<typeof betaCalls>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInAs(t, { role: 'QUANT_ADMIN' });
    beta = betaCalls(t);
  });
  afterAll(() => t?.close());

  const catalogue = async () => {
    const res = await beta.inject('GET', BASE, admin);
    expect(res.statusCode, res.body).toBe(200);
    return ZManagedBetaFeatureList.parse(res.json()).features;
  };
  const participants = async (id: string) => {
    const res = await beta.inject('GET', `${BASE}/${id}/participants`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return ZBetaParticipantList.parse(res.json()).participants;
  };
  const invite = (id: string, accountId: string) =>
    beta.inject('POST', `${BASE}/${id}/invitations`, admin, { accountId });
  /** A customer whose account has an organisation name. */
  const customer = async (organisationName: string) => {
    const user = await newAppUser(t);
    await t.db.db.update(accounts).set({ organisationName }).where(eq(accounts.id, user.accountId));
    return user;
  };

  it('is refused to customers and sales (403), open to administrators', async () => {
    const feature = await beta.create(admin);
    const sales = await signInAs(t, { role: 'QUANT_SALES' });
    const user = await newAppUser(t);
    const form = { name: 'Nope', description: 'Nope', featureKey: 'bridge', access: 'OPEN' };
    for (const caller of [user, sales]) {
      for (const [method, url, body] of [
        ['GET', BASE],
        ['POST', BASE, form],
        ['PUT', `${BASE}/${feature.id}`, form],
        ['DELETE', `${BASE}/${feature.id}`],
        ['GET', `${BASE}/${feature.id}/participants`],
        ['POST', `${BASE}/${feature.id}/invitations`, { accountId: user.accountId }],
        ['DELETE', `${BASE}/${feature.id}/invitations/${user.accountId}`],
      ] as const) {
        const res = await beta.inject(method, url, caller, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().code).toBe('FORBIDDEN');
      }
    }
    expect((await catalogue()).map((f) => f.id)).toContain(feature.id);
  });

  it('creates, lists, edits and deletes a feature, each audited', async () => {
    const created = await beta.create(admin, { name: '  Quiet mode  ', featureKey: 'reward', access: 'INVITATION' });
    expect(created).toMatchObject({
      name: 'Quiet mode',
      featureKey: 'reward',
      access: 'INVITATION',
      optIns: 0,
      invitations: 0,
    });
    const listed = await catalogue();
    expect(listed).toContainEqual(created);
    expect(listed).toContainEqual(expect.objectContaining({ name: 'Bridges', featureKey: 'bridge', access: 'OPEN' }));
    expect(listed.map((f) => f.name)).toEqual([...listed.map((f) => f.name)].sort((a, b) => (a < b ? -1 : 1)));

    const form = { name: 'Quiet mode', description: 'Fewer mails.', featureKey: 'reward', access: 'OPEN' };
    const edited = await beta.inject('PUT', `${BASE}/${created.id}`, admin, form);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(ZManagedBetaFeature.parse(edited.json())).toMatchObject({ ...form, id: created.id });

    const deleted = await beta.inject('DELETE', `${BASE}/${created.id}`, admin);
    expect(deleted.statusCode).toBe(204);
    expect((await catalogue()).map((f) => f.id)).not.toContain(created.id);
    expect((await beta.inject('DELETE', `${BASE}/${created.id}`, admin)).json().code).toBe('BETA_FEATURE_NOT_FOUND');

    const audit = await beta.audit('beta_feature', created.id);
    expect(audit.map((e) => [e.action, e.actorId, e.actorEmail])).toEqual([
      ['BETA_FEATURE_CREATED', admin.sub, admin.email],
      ['BETA_FEATURE_UPDATED', admin.sub, admin.email],
      ['BETA_FEATURE_DELETED', admin.sub, admin.email],
    ]);
    expect(audit[0]!.after).toEqual({
      name: 'Quiet mode',
      description: 'Try it before everyone else.',
      featureKey: 'reward',
      access: 'INVITATION',
    });
    expect(audit[1]).toMatchObject({
      before: { description: 'Try it before everyone else.', access: 'INVITATION' },
      after: { description: 'Fewer mails.', access: 'OPEN' },
    });
    expect(audit[2]!.before).toMatchObject({ name: 'Quiet mode', optIns: 0, invitations: 0 });
  });

  it('refuses a taken name (letter case aside) with 409 on name, and bad bodies and ids with 400', async () => {
    const first = await beta.create(admin);
    const second = await beta.create(admin);
    const form = { name: first.name.toUpperCase(), description: 'Same name.', featureKey: 'bridge', access: 'OPEN' };
    for (const [method, url] of [
      ['POST', BASE],
      ['PUT', `${BASE}/${second.id}`],
    ] as const) {
      const res = await beta.inject(method, url, admin, form);
      expect(res.statusCode, `${method} ${url}`).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'BETA_FEATURE_NAME_EXISTS',
        invalidParams: [{ name: 'name', reason: 'Another beta feature has this name.' }],
      });
    }
    // Its own name is not taken.
    const same = await beta.inject('PUT', `${BASE}/${first.id}`, admin, { ...form, name: first.name });
    expect(same.statusCode, same.body).toBe(200);
    // Two saves of one name in two cases at once: one is created, the other refused on name.
    const racing = await Promise.all(
      ['Racing Name', 'racing name'].map((name) => beta.inject('POST', BASE, admin, { ...form, name })),
    );
    expect(racing.map((res) => res.statusCode).sort()).toEqual([201, 409]);

    for (const [body, field] of [
      [{ ...form, name: '  ' }, 'name'],
      [{ ...form, name: 'x'.repeat(61) }, 'name'],
      [{ ...form, name: 'Fine', description: '' }, 'description'],
      [{ ...form, name: 'Fine', featureKey: 'connectBeta' }, 'featureKey'],
      [{ ...form, name: 'Fine', featureKey: 'applications:create' }, 'featureKey'],
      [{ ...form, name: 'Fine', access: 'CLOSED' }, 'access'],
    ] as const) {
      const res = await beta.inject('POST', BASE, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().invalidParams.map((p: { name: string }) => p.name)).toContain(field);
    }
    const badId = await beta.inject('PUT', `${BASE}/nope`, admin, form);
    expect(badId.statusCode).toBe(400);
    expect(badId.json().invalidParams).toEqual([{ name: 'id', reason: 'The beta feature id must be a UUID.' }]);
    for (const [method, url, body] of [
      ['PUT', `${BASE}/${UNKNOWN}`, { ...form, name: 'Unknown one' }],
      ['DELETE', `${BASE}/${UNKNOWN}`],
      ['GET', `${BASE}/${UNKNOWN}/participants`],
      ['POST', `${BASE}/${UNKNOWN}/invitations`, { accountId: UNKNOWN }],
      ['DELETE', `${BASE}/${UNKNOWN}/invitations/${UNKNOWN}`],
    ] as const) {
      const res = await beta.inject(method, url, admin, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code).toBe('BETA_FEATURE_NOT_FOUND');
    }
  });

  it('lists who opted in and who is invited, with the organisation, when and by whom', async () => {
    const feature = await beta.create(admin);
    const early = await customer('Early Birds Ltd');
    const late = await customer('Late Comers Ltd');
    const onlyInvited = await customer('Waiting Room Ltd');
    await beta.optIn(early, feature.id);
    await beta.optIn(late, feature.id);
    expect((await invite(feature.id, onlyInvited.accountId)).statusCode).toBe(201);

    const list = await participants(feature.id);
    expect(list.map((p) => p.organisationName)).toEqual(['Waiting Room Ltd', 'Late Comers Ltd', 'Early Birds Ltd']);
    expect(list[1]).toEqual({
      accountId: late.accountId,
      organisationName: 'Late Comers Ltd',
      optedIn: true,
      invited: false,
      optedInAt: expect.any(String),
      optedInBy: late.email,
    });
    expect(list[0]).toMatchObject({ optedIn: false, invited: true, optedInAt: null, optedInBy: null });
    expect((await catalogue()).find((f) => f.id === feature.id)).toMatchObject({ optIns: 2, invitations: 1 });
    expect(await participants((await beta.create(admin)).id)).toEqual([]);
  });

  it('invites and revokes: audited, idempotent, an unknown account refused on accountId', async () => {
    const feature = await beta.create(admin, { access: 'INVITATION' });
    const user = await customer('Invited Co');
    const first = await invite(feature.id, user.accountId);
    expect(first.statusCode, first.body).toBe(201);
    expect(ZBetaParticipant.parse(first.json())).toEqual({
      accountId: user.accountId,
      organisationName: 'Invited Co',
      optedIn: false,
      invited: true,
      optedInAt: null,
      optedInBy: null,
    });
    expect((await invite(feature.id, user.accountId)).json()).toEqual(first.json());
    const rows = await t.db.db.select().from(betaInvitations).where(eq(betaInvitations.betaFeatureId, feature.id));
    expect(rows).toEqual([expect.objectContaining({ accountId: user.accountId, invitedBy: admin.sub })]);

    const unknown = await invite(feature.id, UNKNOWN);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'ACCOUNT_NOT_FOUND', invalidParams: [{ name: 'accountId' }] });
    const bad = await invite(feature.id, 'someone');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().invalidParams.map((p: { name: string }) => p.name)).toEqual(['accountId']);

    // Revoked, the account's opt-in goes with the invitation: the key turns off.
    await beta.optIn(user, feature.id);
    expect((await beta.available(user)).bridge).toBeDefined();
    const revoke = () => beta.inject('DELETE', `${BASE}/${feature.id}/invitations/${user.accountId}`, admin);
    expect((await revoke()).statusCode).toBe(204);
    expect((await revoke()).statusCode).toBe(204);
    expect(await beta.available(user)).not.toHaveProperty('bridge');
    expect(await t.db.db.select().from(betaOptins).where(eq(betaOptins.betaFeatureId, feature.id))).toEqual([]);
    expect((await beta.list(user)).map((f) => f.id)).not.toContain(feature.id);

    const audit = await beta.audit('account', user.accountId);
    expect(audit.map((e) => [e.action, e.actorEmail])).toEqual([
      ['BETA_INVITED', admin.email],
      ['BETA_OPTED_IN', user.email],
      ['BETA_INVITATION_REVOKED', admin.email],
    ]);
    expect(audit[2]).toMatchObject({
      before: { betaFeatureId: feature.id, invited: true, optedIn: true },
      after: { betaFeatureId: feature.id, invited: false, optedIn: false },
    });
  });

  it('an OPEN feature made INVITATION invites the accounts that opted in: they keep it, newcomers do not see it', async () => {
    const feature = await beta.create(admin);
    const [inside, outside] = [await customer('Inside Ltd'), await customer('Outside Ltd')];
    await beta.optIn(inside, feature.id);
    const res = await beta.inject('PUT', `${BASE}/${feature.id}`, admin, {
      name: feature.name,
      description: feature.description,
      featureKey: 'bridge',
      access: 'INVITATION',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ access: 'INVITATION', optIns: 1, invitations: 1 });
    expect((await beta.available(inside)).bridge).toBeDefined();
    expect((await beta.list(outside)).map((f) => f.id)).not.toContain(feature.id);
    expect(await participants(feature.id)).toEqual([
      expect.objectContaining({ accountId: inside.accountId, optedIn: true, invited: true }),
    ]);
    const [updated] = (await beta.audit('beta_feature', feature.id)).filter((e) => e.action === 'BETA_FEATURE_UPDATED');
    expect(updated).toMatchObject({
      before: { access: 'OPEN' },
      after: { access: 'INVITATION', invitedParticipants: [inside.accountId] },
    });
  });
});
