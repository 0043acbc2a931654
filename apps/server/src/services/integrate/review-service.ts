import type {
  TManagementPrivateNetwork,
  TManagementPrivateNetworkSortField,
  TPrivateNetworkReviewRequest,
  TPrivateNetworkRpcCheck,
  TPrivateNetworkStatus,
  TAuditAction,
} from '@connect/shared';
import { notFound, problem } from '../../lib/errors.ts';
import type { StaffListRequest } from '../../lib/staff-list.ts';
import type { PrivateNetworkReviewsReadModel } from '../../read-models/private-network-reviews.ts';
import type { AuditActor } from '../../repositories/audit-log.ts';
import type { IntegrateRepository, PrivateNetworkRow } from './repository.ts';
import { checkPrivateNetworkRpc, type RpcProbeFn } from './rpc-check.ts';

type Decision = TPrivateNetworkReviewRequest['decision'];

/** Where each decision takes a network, from which status, and how the audit log names it. */
const DECISIONS: Record<Decision, { from: TPrivateNetworkStatus; to: TPrivateNetworkStatus; action: TAuditAction }> = {
  APPROVE: { from: 'UNDER_REVIEW', to: 'ACTIVE', action: 'PRIVATE_NETWORK_APPROVED' },
  REJECT: { from: 'UNDER_REVIEW', to: 'REJECTED', action: 'PRIVATE_NETWORK_REJECTED' },
  COMPLETE_REMOVAL: { from: 'REMOVAL_REQUESTED', to: 'REMOVED', action: 'PRIVATE_NETWORK_REMOVAL_COMPLETED' },
};

/** What the audit entry keeps of a network: the fields a decision changes. */
const reviewState = (row: PrivateNetworkRow) => ({
  status: row.status,
  reviewNote: row.reviewNote,
  reviewedAt: row.reviewedAt,
  removedAt: row.removedAt,
});

/**
 * Private-network review (issue 33 §4; spec §5 "review answer within 5 working days", "removal
 * takes 2-5 working days"): the staff list and a network's details (a read model), the live RPC
 * check run again on demand, and the decisions — approve or reject a network under review, or
 * complete a requested removal — each audited in its own transaction.
 */
export class PrivateNetworkReviewService {
  constructor(
    private readonly repo: IntegrateRepository,
    private readonly reads: PrivateNetworkReviewsReadModel,
    private readonly probe: RpcProbeFn,
  ) {}

  list(
    filter: { status: TPrivateNetworkStatus; searchTerm?: string | undefined },
    request: Omit<StaffListRequest<TManagementPrivateNetworkSortField>, 'total'>,
  ) {
    return this.reads.list(filter, request);
  }

  async details(id: string): Promise<TManagementPrivateNetwork> {
    const network = await this.reads.byId(id);
    if (!network) throw notFound('NETWORK_NOT_FOUND');
    return network;
  }

  /**
   * The submission's RPC check run again, now, against what the network claims (its URL, chain id
   * and fee model). Only a report: the network's status stays as it is — staff decide.
   */
  async rpcCheck(id: string): Promise<TPrivateNetworkRpcCheck> {
    const row = await this.repo.privateNetwork(id, null);
    if (!row) throw notFound('NETWORK_NOT_FOUND');
    const claims = { url: row.rpcUrl, chainId: row.chainId, eip1559: row.eip1559 };
    const { errors, probe } = await checkPrivateNetworkRpc(this.probe, claims);
    return {
      networkId: row.id,
      url: row.rpcUrl,
      checkedAt: new Date().toISOString(),
      isPassed: errors.length === 0,
      isReachable: probe !== null,
      expectedChainId: row.chainId,
      chainId: probe?.chainId ?? null,
      latestBlock: probe ? Number(probe.latestBlock) : null,
      expectedEip1559: row.eip1559,
      eip1559: probe ? probe.baseFeePerGas !== null : null,
      problems: errors,
    };
  }

  /**
   * A staff decision. The row is locked and its status checked in one transaction, so of two
   * decisions at once exactly one applies and the other answers 409 (NETWORK_NOT_UNDER_REVIEW or
   * NETWORK_NOT_REMOVABLE, naming the status it found). An approval or a rejection is announced
   * (network.review_decided: the submitter's bell notice and email, and their open My networks
   * page); every decision is audited with the network's state before and after.
   */
  async review(actor: AuditActor, id: string, input: TPrivateNetworkReviewRequest): Promise<TManagementPrivateNetwork> {
    const decision = DECISIONS[input.decision];
    await this.repo.transaction(async (repo) => {
      const row = await repo.privateNetwork(id, null, { forUpdate: true });
      if (!row) throw notFound('NETWORK_NOT_FOUND');
      if (row.status !== decision.from) {
        throw input.decision === 'COMPLETE_REMOVAL'
          ? problem('NETWORK_NOT_REMOVABLE', {
              detail: `Only a network whose removal was requested can be removed (this one is ${row.status}).`,
            })
          : problem('NETWORK_NOT_UNDER_REVIEW', {
              detail: `Only a network under review can be approved or rejected (this one is ${row.status}).`,
            });
      }
      const now = new Date();
      // An empty note is no note (the schema trims it).
      const note = input.note || null;
      const updated =
        input.decision === 'COMPLETE_REMOVAL'
          ? await repo.updatePrivateNetwork(row.id, { status: decision.to, removedAt: now })
          : await repo.updatePrivateNetwork(row.id, { status: decision.to, reviewedAt: now, reviewNote: note });
      if (input.decision !== 'COMPLETE_REMOVAL') {
        await repo.announce('network.review_decided', {
          accountId: updated.accountId,
          networkId: updated.id,
          networkName: updated.name,
          requestedBy: updated.createdBy,
          decision: input.decision === 'APPROVE' ? 'APPROVED' : 'REJECTED',
          note,
        });
      }
      await repo.audit().record(actor, {
        action: decision.action,
        recordType: 'private_network',
        recordId: row.id,
        before: { name: row.name, accountId: row.accountId, ...reviewState(row) },
        after: { name: updated.name, accountId: updated.accountId, ...reviewState(updated) },
      });
    });
    return this.details(id);
  }
}
