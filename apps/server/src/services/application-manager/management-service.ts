import {
  APPLICATION_MANAGEMENT_MESSAGES,
  APPLICATION_ROLE_DESCRIPTIONS,
  APPLICATION_ROLES,
  type ApplicationType,
  type TApplicationNetwork,
  type TApplicationRolesResponse,
  type TManagementApplicationsResponse,
  type TManagementApplicationSortField,
  type TManagementCreateApplicationResponse,
  type TManagementNetworkCatalogue,
} from '@connect/shared';
import type { Database } from '@connect/db';
import { fieldProblem, notFound, problem, ProblemError } from '../../lib/errors.ts';
import type { StaffListRequest } from '../../lib/staff-list.ts';
import { ApplicationManagementReadModel } from '../../read-models/application-management.ts';
import type { AuditActor } from '../../repositories/audit-log.ts';
import { findPortalUserIn } from '../../repositories/portal-users.ts';
import { ApplicationManagementRepository, type ApplicationListFilter } from './management-repository.ts';
import type { ApplicationService } from './service.ts';

type CreateInput = {
  email: string;
  roleName: (typeof APPLICATION_ROLES)[number];
  name: string;
  callbackUrl: string;
  applicationType: ApplicationType;
  networkIds: string[];
  testnetSigning: boolean;
};

/**
 * Application management (issue 33 §2; spec §2, §3 Application (admin creation), §5, §7): every
 * application in the staff list, and an application created by staff for a user named by email.
 * The creation is the customer's own (ApplicationService.create, run as that user): the account's
 * plan allowances, the networks it activated and the identity check for mainnet apply as when the
 * user registers one; the audit entry and the email's event commit with it.
 */
export class ApplicationManagementService {
  private readonly list_: ApplicationManagementRepository;
  private readonly people: ApplicationManagementReadModel;

  constructor(
    private readonly db: Database,
    private readonly applications: ApplicationService,
  ) {
    this.list_ = new ApplicationManagementRepository(db);
    this.people = new ApplicationManagementReadModel(db);
  }

  list(
    filter: ApplicationListFilter,
    request: Omit<StaffListRequest<TManagementApplicationSortField>, 'total'>,
  ): Promise<TManagementApplicationsResponse> {
    return this.list_.list(filter, request);
  }

  async catalogue(): Promise<TManagementNetworkCatalogue> {
    return { networks: await this.list_.catalogue() };
  }

  roles(): TApplicationRolesResponse {
    return {
      roles: APPLICATION_ROLES.map((roleName) => ({ roleName, description: APPLICATION_ROLE_DESCRIPTIONS[roleName] })),
    };
  }

  /** The account's activated networks of the type, as the user's own registration lists them; 404 for no account. */
  async networks(accountId: string, networkType: ApplicationType): Promise<TApplicationNetwork[]> {
    if (!(await this.people.accountExists(accountId))) throw notFound('ACCOUNT_NOT_FOUND');
    return this.applications.availableNetworks({ accountId }, networkType);
  }

  async create(actor: AuditActor, input: CreateInput): Promise<TManagementCreateApplicationResponse> {
    const { email, roleName, ...application } = input;
    const userId = await this.people.liveUserIdByEmail(email);
    const user = userId ? await findPortalUserIn(this.db, userId) : null;
    // Said under the email field: the autocomplete offers live users only, so this is a typed address.
    if (!user) throw fieldProblem('USER_NOT_FOUND', 'email', APPLICATION_MANAGEMENT_MESSAGES.userNotFound);
    const created = await this.createFor(user, { ...application, roleName }, async (repo, view) => {
      await repo.audit(actor, {
        action: 'APPLICATION_CREATED',
        recordType: 'application',
        recordId: view.id,
        before: null,
        after: {
          name: view.name,
          clientId: view.clientId,
          applicationType: view.applicationType,
          roleName,
          accountId: view.accountId,
          userId: user.id,
          email: user.email,
          networkIds: view.networks.map((network) => network.id),
        },
      });
      await repo.announce('application.created_by_staff', {
        accountId: view.accountId,
        userId: user.id,
        email: user.email,
        applicationId: view.id,
        clientId: view.clientId,
        name: view.name,
        applicationType: view.applicationType,
        roleName,
      });
    });
    return { ...created, roleName, owner: { userId: user.id, email: user.email } };
  }

  /**
   * The user's own creation, with its refusals as the user gets them — except that the plan being
   * out of service is the account's state, not the caller's: a 403 would sign staff out (spec §8).
   */
  private async createFor(...args: Parameters<ApplicationService['create']>) {
    try {
      return await this.applications.create(...args);
    } catch (error) {
      if (error instanceof ProblemError && error.code === 'PLAN_INACTIVE') throw problem('ACCOUNT_PLAN_NOT_IN_SERVICE');
      throw error;
    }
  }
}
