import { useQueryClient } from '@tanstack/react-query';
import { type TCreateTokenRequest, type TToken, type TTokenLocation } from '@connect/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Hex } from 'viem';
import type { Config } from 'wagmi';
import { ApiError } from '../../../lib/api-client.ts';
import { problemRedirectOf, type ProblemRedirect } from '../../../lib/problems.ts';
import {
  classifyWalletError,
  connectWallet,
  ensureChain,
  hasWallet,
  sendDeployment,
  walletErrorDetail,
  type WalletChooser,
  type WalletErrorCode,
} from '../../../lib/wallet/index.ts';
import { cancelTracking } from '../api/cancel-tracking.ts';
import { createToken } from '../api/create-token.ts';
import { getToken } from '../api/get-token.ts';
import { tokensKey } from '../api/get-tokens.ts';
import { trackDeployment } from '../api/track-deployment.ts';

export type DeployPhase = 'creating' | 'connecting' | 'switching' | 'signing' | 'tracking' | 'confirming' | 'platform';

/** The deployment states of spec §2.5: ready, pending, successful, successful without wallet, cancelled, error. */
export type DeployState =
  | { kind: 'ready'; walletError?: WalletErrorCode; walletDetail?: string }
  | { kind: 'pending'; phase: DeployPhase; token?: TToken; txHash?: string }
  | { kind: 'successful'; token: TToken }
  | { kind: 'successfulWithoutWallet'; token: TToken }
  | { kind: 'cancelled'; walletError: WalletErrorCode }
  | { kind: 'error'; message?: string; token?: TToken; walletError?: WalletErrorCode; walletDetail?: string };

const POLL_MS = 1500;
/** About three minutes of failed reads before the page gives up waiting. */
const MAX_POLL_FAILURES = 120;

/** A wallet's refusal: the user pressed reject (4001). */
const isRejection = (code: WalletErrorCode) => code === 'USER_REJECTED';

/**
 * Runs one deployment. With the wallet (META_MASK): connect, switch to the network, create the
 * token (the platform answers the exact deployment transaction), have the wallet send it, hand the
 * hash to the platform, then follow the token until the platform has confirmed the contract on
 * chain. With the platform (QUANT): create and follow. A refusal in the wallet cancels the token
 * on the platform (nothing charged); the same externalId is kept for a retry of the same attempt
 * until it ends, so nothing is ever deployed twice.
 */
export function useDeployment({
  request,
  location,
  walletConfig,
  chooseWallet,
  onGuard,
}: {
  request: Omit<TCreateTokenRequest, 'externalId'>;
  location: TTokenLocation;
  walletConfig: Config;
  /** The wallet picker, asked when several wallets are installed. */
  chooseWallet: WalletChooser | undefined;
  onGuard: (redirect: ProblemRedirect) => void;
}) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<DeployState>({ kind: 'ready' });
  const isMounted = useRef(true);
  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
    };
  }, []);
  const update = useCallback((next: DeployState) => {
    if (isMounted.current) setState(next);
  }, []);

  const follow = useCallback(
    async (token: TToken, phase: DeployPhase, txHash?: string) => {
      let current = token;
      let failures = 0;
      while (isMounted.current && current.status === 'PENDING') {
        update({ kind: 'pending', phase, token: current, txHash: txHash ?? current.transactionId ?? undefined });
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        try {
          current = await getToken(token.id);
          failures = 0;
        } catch (error) {
          // The platform keeps following the deployment (it survives restarts): a brief outage of
          // the portal is not a failed deployment. Only a long one ends the wait.
          failures += 1;
          if (failures >= MAX_POLL_FAILURES) throw error;
        }
      }
      await queryClient.invalidateQueries({ queryKey: tokensKey });
      if (current.status === 'ACTIVE') {
        update({
          kind: request.deploymentType === 'META_MASK' ? 'successful' : 'successfulWithoutWallet',
          token: current,
        });
      } else {
        update({ kind: 'error', token: current });
      }
    },
    [queryClient, request.deploymentType, update],
  );

  const start = useCallback(async () => {
    const externalId = crypto.randomUUID();
    const isWallet = request.deploymentType === 'META_MASK';
    let created: TToken | undefined;
    let wasSent = false;
    try {
      if (isWallet) {
        // Before anything is created: without a wallet there is nothing to deploy with.
        if (!(await hasWallet(walletConfig))) {
          update({ kind: 'ready', walletError: 'NO_WALLET' });
          return;
        }
        update({ kind: 'pending', phase: 'connecting' });
        await connectWallet(walletConfig, { choose: chooseWallet });
        update({ kind: 'pending', phase: 'switching' });
        await ensureChain(walletConfig, location.chainId);
      }
      update({ kind: 'pending', phase: 'creating' });
      const response = await createToken({ ...request, externalId });
      created = response.token;
      if (!isWallet) {
        await queryClient.invalidateQueries({ queryKey: tokensKey });
        await follow(created, 'platform');
        return;
      }
      if (!response.deployment) {
        // Already sent (a retried request): follow what the platform has.
        wasSent = true;
        await follow(created, 'confirming');
        return;
      }
      update({ kind: 'pending', phase: 'signing', token: created });
      const txHash = await sendDeployment(
        walletConfig,
        { chainId: response.deployment.chainId, data: response.deployment.data as Hex },
        { choose: chooseWallet },
      );
      wasSent = true;
      update({ kind: 'pending', phase: 'tracking', token: created, txHash });
      const tracked = await trackDeployment({ externalId, txHash });
      await queryClient.invalidateQueries({ queryKey: tokensKey });
      await follow(tracked, 'confirming', txHash);
    } catch (error) {
      if (error instanceof ApiError) {
        const sendsOn = problemRedirectOf(error);
        if (sendsOn) {
          onGuard(sendsOn);
          return;
        }
        update({ kind: 'error', message: error.message, ...(created ? { token: created } : {}) });
        return;
      }
      const code = classifyWalletError(error);
      // The picker was closed before anything was created: back to where the user was.
      if (code === 'CANCELLED' && !created) {
        update({ kind: 'ready' });
        return;
      }
      // The wallet never sent it: the platform deletes the unsent token (spec §4), nothing is charged.
      if (created && !wasSent) {
        await cancelTracking({
          externalId,
          reason: isRejection(code) ? 'DENIED' : code === 'NO_WALLET' ? 'NO_WALLET' : 'ERROR',
        }).catch(() => undefined);
        await queryClient.invalidateQueries({ queryKey: tokensKey });
      }
      if (isRejection(code)) update({ kind: 'cancelled', walletError: code });
      else if (code === 'NO_WALLET') update({ kind: 'ready', walletError: code });
      else update({ kind: 'error', walletError: code, walletDetail: walletErrorDetail(error) });
    }
  }, [chooseWallet, follow, location.chainId, onGuard, queryClient, request, update, walletConfig]);

  const reset = useCallback(() => update({ kind: 'ready' }), [update]);

  return { state, start, reset };
}
