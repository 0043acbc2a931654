import {
  filterRoutes,
  FIELD_MESSAGES,
  isFeatureAvailable,
  mfaStatusOf,
  routeCatalogue,
  type RouteItem,
  type TAvailableFeatures,
  type TCompanyDetailsRequest,
  type TContentFeature,
  type TContentUpdatesPage,
  type TFooter,
  type TInvalidParam,
  type TMfaStatus,
  type TTermsVersion,
  type TUpdateIdentityRequest,
  type TUpdateUserRequest,
  type TUser,
  type TUserSettingsRequest,
} from '@connect/shared';
import type { IdentityAdmin } from '../../adapters/identity-admin/port.ts';
import type { Config } from '../../config.ts';
import { fieldProblem, notFound, problem, unauthorized } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import { dashboardFeatures, productCatalogue } from './product-catalogue.ts';
import type { ConnectRepository, UserRecord } from './repository.ts';

// One wording for "not yours" and "does not exist", so a 404 never tells which it was.

/**
 * The rules of the connect service (spec §3–§7): the user's own profile, terms acceptance,
 * MFA status, dashboard content, feature availability and the role-based route list.
 */
export class ConnectService {
  constructor(
    private readonly repo: ConnectRepository,
    private readonly identityAdmin: IdentityAdmin,
    private readonly config: Pick<Config, 'productSlug' | 'productName' | 'documentationUrl'>,
  ) {}

  /** A user may read only themselves; any other id answers as if it did not exist. */
  async getUser(caller: PortalUser, id: string): Promise<TUser> {
    if (id.toLowerCase() !== caller.id.toLowerCase()) throw notFound('USER_NOT_FOUND');
    // The auth plugin loaded the caller with every field of the view in this request's one query.
    return toUser(caller, caller.latestTerms, caller.acceptedTermsVersion);
  }

  /**
   * The profile form of /user-details. After identity verification the names must match the
   * identity document (spec §5), so a changed name rejects the whole request: writing the other
   * fields alone would leave the user thinking the form was saved as entered.
   */
  async updateProfile(caller: PortalUser, input: TUpdateUserRequest): Promise<TUser> {
    return this.withPoolNames(caller, input, async (repo) => {
      const current = await this.requireUser(repo, caller.id, { forUpdate: true });
      assertNamesEditable(current, input);
      await repo.updateUser(caller.id, {
        firstName: input.firstName,
        lastName: input.lastName,
        hearAboutUs: input.hearAboutUs,
        // An emptied description is stored as absent, so "filled" always means there is text.
        hearAboutUsDescription: input.hearAboutUsDescription || null,
      });
      await repo.updateAccount(current.accountId, {
        organisationName: input.organisationName,
        organisationLocation: input.organisationLocation,
        industry: input.industry,
        companySize: input.companySize,
      });
      return this.userView(repo, caller.id);
    });
  }

  /**
   * PUT /user/identity: the names alone, in the portal and in the identity pool (given_name,
   * family_name). Refused once the identity is verified (spec §5) unless they are unchanged.
   */
  async updateIdentity(caller: PortalUser, input: TUpdateIdentityRequest): Promise<TUser> {
    return this.withPoolNames(caller, input, async (repo) => {
      const current = await this.requireUser(repo, caller.id, { forUpdate: true });
      assertNamesEditable(current, input);
      await repo.updateUser(caller.id, { firstName: input.firstName, lastName: input.lastName });
      return this.userView(repo, caller.id);
    });
  }

  /**
   * Keeps the identity pool's names in step with the portal's (decision "Names in the identity
   * pool"): the pool is written first, then `work` runs in one transaction. A pool that fails
   * leaves the portal untouched (502 IDENTITY_POOL_FAILED); a transaction that fails after the pool
   * took the names (a check settled VERIFIED in between) gives the pool back the names it had.
   * Unchanged names cost no pool call; a verified user's changed names are refused before it.
   */
  private async withPoolNames<T>(
    caller: PortalUser,
    names: TUpdateIdentityRequest,
    work: (repo: ConnectRepository) => Promise<T>,
  ): Promise<T> {
    const before = await this.requireUser(this.repo, caller.id);
    const isChanged = names.firstName !== before.firstName || names.lastName !== before.lastName;
    if (!isChanged) return this.repo.transaction(work);
    assertNamesEditable(before, names);
    await this.writePoolNames(caller.email, names);
    try {
      return await this.repo.transaction(work);
    } catch (error) {
      await this.writePoolNames(caller.email, {
        firstName: before.firstName ?? '',
        lastName: before.lastName ?? '',
      }).catch(() => undefined);
      throw error;
    }
  }

  private async writePoolNames(username: string, names: TUpdateIdentityRequest): Promise<void> {
    try {
      await this.identityAdmin.updateAttributes(username, {
        given_name: names.firstName,
        family_name: names.lastName,
      });
    } catch (error) {
      // The access token outlived its pool user (deleted by an administrator): the session is over.
      if (error instanceof Error && error.name === 'UserNotFoundException') throw unauthorized('UNKNOWN_USER');
      throw problem('IDENTITY_POOL_FAILED');
    }
  }

  async updateCompanyDetails(caller: PortalUser, input: TCompanyDetailsRequest): Promise<TUser> {
    const current = await this.requireUser(this.repo, caller.id);
    await this.repo.updateAccount(current.accountId, input);
    return this.userView(this.repo, caller.id);
  }

  async updateSettings(caller: PortalUser, input: TUserSettingsRequest): Promise<TUser> {
    await this.requireUser(this.repo, caller.id);
    await this.repo.updateUser(caller.id, { promotionalEmails: input.promotionalEmails });
    return this.userView(this.repo, caller.id);
  }

  /**
   * The identity provider owns MFA (spec §4): the portal's copy is refreshed from it on every
   * call, so a user who set up or reset an authenticator elsewhere is reported correctly.
   */
  async syncMfaStatus(caller: PortalUser): Promise<TMfaStatus> {
    const identity = await this.identityAdmin.getUser(caller.email);
    // The access token outlived its pool user (deleted by an administrator): the session is over.
    if (!identity) throw unauthorized('UNKNOWN_USER');
    const mfaSetup = identity.totpVerified;
    const mfaConfirm = identity.mfaPreferred;
    await this.repo.updateUser(caller.id, { mfaSetup, mfaConfirm });
    return { mfaSetup, mfaConfirm, userMfaStatus: mfaStatusOf(mfaSetup, mfaConfirm) };
  }

  /**
   * Only the latest terms can be accepted: accepting an older version (a stale page) would
   * still leave the terms guard redirecting, so it is refused with a message saying why.
   */
  async acceptTerms(caller: PortalUser, version: string): Promise<TUser> {
    const latest = await this.repo.latestTerms();
    if (!latest || latest.version !== version) {
      throw fieldProblem('TERMS_OUTDATED', 'version');
    }
    await this.repo.acceptTerms(caller.id, version);
    return this.userView(this.repo, caller.id);
  }

  async latestTerms(): Promise<TTermsVersion> {
    const latest = await this.repo.latestTerms();
    if (!latest) throw notFound('TERMS_NOT_PUBLISHED');
    return { ...latest, publishedAt: latest.publishedAt.toISOString() };
  }

  async contentUpdates(page: number, size: number): Promise<TContentUpdatesPage> {
    const { rows, total } = await this.repo.contentUpdatesPage(page * size, size);
    return {
      content: rows.map((row) => ({ ...row, publishedAt: row.publishedAt.toISOString() })),
      totalElements: total,
      totalPages: Math.ceil(total / size),
      number: page,
      size,
    };
  }

  /**
   * The dashboard's features list, fed by the product catalogue (product-catalogue.ts): its one
   * source of text, with the products that need a feature shown only to accounts that have it.
   */
  async contentFeatures(caller: PortalUser): Promise<TContentFeature[]> {
    return dashboardFeatures(productCatalogue().catalogue, this.config.productSlug, await this.features(caller));
  }

  /**
   * The footer of spec §2.2. A link switched by a feature flag is shown only when the caller's
   * account has that feature; a section left with no links is dropped, since a heading over
   * nothing is noise (and an entirely empty footer makes the SPA use its default, spec §8).
   */
  async footer(caller: PortalUser): Promise<TFooter> {
    const [sections, links, features] = await Promise.all([
      this.repo.footerSections(),
      this.repo.footerLinks(),
      this.features(caller),
    ]);
    const visible = links.filter((link) => !link.feature || isFeatureAvailable(features, link.feature));
    const toLink = (link: (typeof visible)[number]) => ({
      title: link.title,
      url: link.url,
      addSuffix: link.addSuffix,
      feature: link.feature,
    });
    return {
      sections: sections
        .map((section) => ({
          title: section.title,
          links: visible.filter((link) => link.sectionId === section.id).map(toLink),
        }))
        .filter((section) => section.links.length > 0),
      secondaryLinks: visible.filter((link) => link.sectionId === null).map(toLink),
    };
  }

  /**
   * The caller's account features as spec §3 names them (entitlements' feature map: the plan's
   * allowances and the account's overrides); the client applies isFeatureAvailable.
   */
  async features(caller: PortalUser): Promise<TAvailableFeatures> {
    return this.repo.entitlements().features(caller.accountId);
  }

  /** The role-based route list the SPA adds after sign-in (spec §4 step 4, §5 route access). */
  async routes(caller: PortalUser): Promise<RouteItem[]> {
    const features = await this.features(caller);
    return filterRoutes(
      routeCatalogue(this.config.productSlug, this.config.productName, this.config.documentationUrl),
      caller.role,
      features,
    );
  }

  private async requireUser(repo: ConnectRepository, userId: string, options: { forUpdate?: boolean } = {}) {
    const user = await repo.findUser(userId, options);
    // The row can vanish between authentication and here (an administrator removed the user).
    if (!user) throw notFound('USER_NOT_FOUND');
    return user;
  }

  /** The user as spec §3 describes it; read through `repo` so a transaction sees its own writes. */
  private async userView(repo: ConnectRepository, userId: string): Promise<TUser> {
    const user = await repo.findUserView(userId);
    // The row can vanish between authentication and here (an administrator removed the user).
    if (!user) throw notFound('USER_NOT_FOUND');
    return toUser(user, user.latestTerms, user.acceptedTermsVersion);
  }
}

/**
 * After identity verification the names must match the document (spec §5): a changed name is
 * refused with the fields it changed, and so is the whole request that carried it.
 */
function assertNamesEditable(
  current: Pick<UserRecord, 'kycStatus' | 'firstName' | 'lastName'>,
  names: TUpdateIdentityRequest,
): void {
  if (current.kycStatus !== 'VERIFIED') return;
  const locked: TInvalidParam[] = [];
  if (names.firstName !== current.firstName) locked.push({ name: 'firstName', reason: FIELD_MESSAGES.namesLocked });
  if (names.lastName !== current.lastName) locked.push({ name: 'lastName', reason: FIELD_MESSAGES.namesLocked });
  if (locked.length) throw problem('NAMES_LOCKED', { invalidParams: locked });
}

function toUser(user: UserRecord, latestTerms: string | null, acceptedTermsVersion: string | null): TUser {
  return {
    id: user.id,
    // The portal user's id is the identity pool's subject (spec §4), so `sub` is the same value.
    sub: user.id,
    accountId: user.accountId,
    email: user.email,
    role: user.role,
    status: user.status,
    firstName: user.firstName,
    lastName: user.lastName,
    organisationName: user.organisationName,
    organisationLocation: user.organisationLocation,
    industry: user.industry,
    companySize: user.companySize,
    hearAboutUs: user.hearAboutUs,
    hearAboutUsDescription: user.hearAboutUsDescription,
    promotionalEmails: user.promotionalEmails,
    acceptedTerms: latestTerms !== null && acceptedTermsVersion === latestTerms,
    acceptedTermsVersion,
    latestTerms,
    mfaSetup: user.mfaSetup,
    mfaConfirm: user.mfaConfirm,
    userMfaStatus: mfaStatusOf(user.mfaSetup, user.mfaConfirm),
    onfidoApplicantStatus: user.kycStatus,
    createdAt: user.createdAt.toISOString(),
  };
}
