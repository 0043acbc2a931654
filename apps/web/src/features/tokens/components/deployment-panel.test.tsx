import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import type { DeployState } from '../hooks/use-deployment.ts';
import { LOCATION, token } from '../test-data.ts';
import { DeploymentPanel } from './deployment-panel.tsx';

function renderPanel(state: DeployState, deploymentType: 'META_MASK' | 'QUANT' = 'META_MASK') {
  const onStart = vi.fn();
  const onRetry = vi.fn();
  renderWithProviders(
    <DeploymentPanel
      state={state}
      tokenName="Loyalty Points"
      location={LOCATION}
      deploymentType={deploymentType}
      onStart={onStart}
      onRetry={onRetry}
    />,
  );
  return { onStart, onRetry };
}

describe('DeploymentPanel', () => {
  it('ready: says what the wallet will be asked and starts on demand', () => {
    const { onStart } = renderPanel({ kind: 'ready' });
    const region = screen.getByRole('region', { name: 'Ready to deploy Loyalty Points' });
    expect(within(region).getByText(/Your wallet will ask you to confirm one contract deployment/)).toBeInTheDocument();
    fireEvent.click(within(region).getByRole('button', { name: 'Deploy with Metamask' }));
    expect(onStart).toHaveBeenCalledOnce();
  });

  it('ready without a wallet: the spec’s message', () => {
    renderPanel({ kind: 'ready', walletError: 'NO_WALLET' });
    expect(screen.getByText('Please install and activate your MetaMask!')).toBeInTheDocument();
  });

  it('pending: do not leave the page, with what is happening now and the transaction', () => {
    renderPanel({ kind: 'pending', phase: 'confirming', txHash: `0x${'ab'.repeat(32)}` });
    expect(screen.getByText('Please do not leave this page until the deployment has finished.')).toBeInTheDocument();
    expect(screen.getByText('Waiting for blockchain confirmation…')).toHaveAttribute('role', 'status');
    expect(screen.getByTitle(`0x${'ab'.repeat(32)}`)).toHaveTextContent('0xabab…abab');
  });

  it('pending with the platform: the page may be left', () => {
    renderPanel({ kind: 'pending', phase: 'platform' }, 'QUANT');
    expect(screen.getByText(/You can leave this page: the deployment continues/)).toBeInTheDocument();
    expect(screen.getByText('The platform is deploying your contract…')).toHaveAttribute('role', 'status');
  });

  it('successful (wallet) and successful without wallet (platform) link to the token', () => {
    renderPanel({ kind: 'successful', token: token({ deploymentType: 'META_MASK' }) });
    const region = screen.getByRole('region', { name: 'Loyalty Points is live' });
    expect(within(region).getByText(/Your wallet deployed the contract/)).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: 'View token' })).toHaveAttribute(
      'href',
      '/quant-flows/token-flow/qrc20/base?id=40000000-0000-4000-8000-000000000001',
    );
    expect(within(region).getByTitle('0x5FbDB2315678afecb367f032d93F642f64180aa3')).toBeInTheDocument();
  });

  it('successful without wallet', () => {
    renderPanel({ kind: 'successfulWithoutWallet', token: token() }, 'QUANT');
    expect(screen.getByText(/for you: no wallet was needed/)).toBeInTheDocument();
    expect(screen.getByText('10 credits charged')).toBeInTheDocument();
  });

  it('cancelled: the spec’s words, the wallet’s denial, and a retry', () => {
    const { onRetry } = renderPanel({ kind: 'cancelled', walletError: 'USER_REJECTED' });
    const region = screen.getByRole('region', { name: "You've canceled your deployment." });
    expect(within(region).getByText('User denied transaction signature.')).toBeInTheDocument();
    fireEvent.click(within(region).getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('error: the spec’s message and the failed-deployment notice with the way to support', () => {
    renderPanel({ kind: 'error', token: token({ status: 'FAILED', failureReason: 'out of gas' }) });
    const region = screen.getByRole('region', { name: 'Deployment failed, please try again later' });
    expect(within(region).getByText(/The deployment of this token failed. No credits were charged/)).toHaveTextContent(
      '(out of gas)',
    );
    expect(within(region).getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/support/help');
  });
});
