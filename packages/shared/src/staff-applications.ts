import { z } from 'zod';
import {
  APPLICATION_TYPES,
  ZApplicationNetworksResponse,
  ZCreateApplicationRequest,
  ZCreateApplicationResponse,
} from './applications.ts';
import { USER_STATUSES } from './constants.ts';
import { FIELD_MESSAGES } from './messages.ts';
import { staffListQuery, ZStaffListPaging } from './staff-list.ts';

/*
 * Application management (issue 33 §2; spec §2 Application management, §3 Application (admin
 * creation), §5, §7), under /api/application-manager/management/, for management-admin.
 */

/**
 * The role names an application may have (GET /management/application-roles/; the spec names the
 * field only — docs/decisions/staff-console.md, "Application roles"). The role says what the
 * application is for; it is kept with the application, shown in the staff list and told to the
 * customer in the email of a staff creation. Every application a customer registers is DEVELOPER.
 */
export const APPLICATION_ROLES = ['DEVELOPER', 'INTEGRATION', 'DEMONSTRATION'] as const;
export type TApplicationRole = (typeof APPLICATION_ROLES)[number];
export const DEFAULT_APPLICATION_ROLE: TApplicationRole = 'DEVELOPER';

/** What each role means, for the role select and the API description. */
export const APPLICATION_ROLE_DESCRIPTIONS: Record<TApplicationRole, string> = {
  DEVELOPER: "The customer's own development: what every application a customer registers is.",
  INTEGRATION: 'An integration set up by staff with the customer: onboarding, or a partner’s system.',
  DEMONSTRATION: 'A proof of concept or a demonstration prepared for the customer.',
};

export const ZApplicationRolesResponse = z
  .object({
    roles: z.array(z.object({ roleName: z.enum(APPLICATION_ROLES), description: z.string() })),
  })
  .meta({ id: 'ApplicationRolesResponse' });
export type TApplicationRolesResponse = z.infer<typeof ZApplicationRolesResponse>;

/** The sortable columns; the default is createdAt descending (the newest first, like accounts). */
export const MANAGEMENT_APPLICATION_SORT_FIELDS = ['name', 'ownerEmail', 'createdAt'] as const;
export type TManagementApplicationSortField = (typeof MANAGEMENT_APPLICATION_SORT_FIELDS)[number];

/**
 * An application's status in the list is its account's (the account list's status): ACTIVE;
 * PENDING while the account's users are all invited and none has signed in yet; REMOVED when staff
 * closed the account — the gateway then refuses the application's credentials.
 */
export const APPLICATION_LIST_STATUSES = USER_STATUSES;
export type TApplicationListStatus = (typeof APPLICATION_LIST_STATUSES)[number];

const ZApplicationStatus = z.enum(APPLICATION_LIST_STATUSES);

/** `status` may repeat (spec §7: arrays as repeated keys); absent is all. `networkId`: the applications using it. */
export const ZManagementApplicationsQuery = staffListQuery(MANAGEMENT_APPLICATION_SORT_FIELDS).extend({
  status: z
    .union([ZApplicationStatus, z.array(ZApplicationStatus).max(3)])
    .optional()
    .transform((status) => (status === undefined ? undefined : [...new Set([status].flat())].sort())),
  networkId: z.uuid({ message: 'The network id must be a UUID.' }).optional(),
});
export type TManagementApplicationsQuery = {
  page?: number;
  size?: number;
  sort?: string;
  searchTerm?: string;
  cursor?: string;
  status?: TApplicationListStatus | TApplicationListStatus[];
  networkId?: string;
};

/** A row of the application list. */
export const ZManagementApplication = z
  .object({
    applicationId: z.uuid(),
    name: z.string(),
    clientId: z.string(),
    applicationType: z.enum(APPLICATION_TYPES),
    roleName: z.enum(APPLICATION_ROLES),
    status: ZApplicationStatus,
    accountId: z.uuid(),
    organisationName: z.string().nullable(),
    /** The user the application belongs to: who registered it or for whom staff created it (else the account's owner). */
    owner: z.object({ userId: z.uuid(), email: z.string(), name: z.string().nullable() }).nullable(),
    networks: z.array(z.object({ id: z.uuid(), name: z.string(), networkType: z.enum(APPLICATION_TYPES) })),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'ManagementApplication' });
export type TManagementApplication = z.infer<typeof ZManagementApplication>;

export const ZManagementApplicationsResponse = ZStaffListPaging.extend({
  applicationList: z.array(ZManagementApplication),
}).meta({ id: 'ManagementApplicationsResponse' });
export type TManagementApplicationsResponse = z.infer<typeof ZManagementApplicationsResponse>;

/** GET /management/networks: every network of the catalogue, the list's network filter's choices. */
export const ZManagementNetworkCatalogue = z
  .object({
    networks: z.array(z.object({ id: z.uuid(), name: z.string(), networkType: z.enum(APPLICATION_TYPES) })),
  })
  .meta({ id: 'ManagementNetworkCatalogue' });
export type TManagementNetworkCatalogue = z.infer<typeof ZManagementNetworkCatalogue>;

/** GET /management/networks/{accountId}/{networkType}: the account's networks of the type (the user's own list). */
export const ZManagementNetworksParams = z.object({
  accountId: z.uuid({ message: 'The account id must be a UUID.' }),
  networkType: z.enum(APPLICATION_TYPES),
});
export const ZManagementNetworksResponse = ZApplicationNetworksResponse;

export const APPLICATION_MANAGEMENT_MESSAGES = {
  roleRequired: 'Please choose a role.',
  userRequired: FIELD_MESSAGES.required,
  userNotFound: 'No user of the portal has this email address.',
} as const;

/**
 * POST /management/applications (spec §3 Application (admin creation), §5): the application's own
 * fields, validated as the customer's registration validates them, plus the user (by email) and a
 * role; at least one network ('Please select at least one of the available networks!').
 */
export const ZManagementCreateApplicationRequest = ZCreateApplicationRequest.extend({
  email: z
    .string({ error: APPLICATION_MANAGEMENT_MESSAGES.userRequired })
    .trim()
    .min(1, { message: APPLICATION_MANAGEMENT_MESSAGES.userRequired, abort: true })
    .max(254, { message: FIELD_MESSAGES.tooLong(254), abort: true })
    .pipe(z.email({ message: FIELD_MESSAGES.email }))
    .transform((email) => email.toLowerCase()),
  roleName: z.enum(APPLICATION_ROLES, { error: APPLICATION_MANAGEMENT_MESSAGES.roleRequired }),
}).meta({ id: 'ManagementCreateApplicationRequest' });
export type TManagementCreateApplicationRequest = z.input<typeof ZManagementCreateApplicationRequest>;

/** The created application with its client secret, shown this once, its role and its user. */
export const ZManagementCreateApplicationResponse = ZCreateApplicationResponse.extend({
  roleName: z.enum(APPLICATION_ROLES),
  owner: z.object({ userId: z.uuid(), email: z.string() }),
}).meta({ id: 'ManagementCreateApplicationResponse' });
export type TManagementCreateApplicationResponse = z.infer<typeof ZManagementCreateApplicationResponse>;
