import { useEffect, useState } from 'react';
import type { TCardConfirmation } from '@connect/shared';
import { confirmCardIntent } from '../../lib/payment/card-api.ts';
import { confirmRequestOf, type CardReturn } from '../../lib/payment/card-return.ts';

/** While the bank processes a payment, POST /card/confirm is asked again this often… */
export const CARD_POLL_INTERVAL_MS = 1_500;
/** …for about this long; then the page says it is still processing and offers to check again. */
export const CARD_POLL_TIMEOUT_MS = 30_000;

export type CardConfirmationState =
  | { phase: 'confirming' }
  /** `isSlow`: still processing after the time allowed; nothing is asked until `retry`. */
  | { phase: 'processing'; confirmation: TCardConfirmation; isSlow: boolean }
  | { phase: 'settled'; confirmation: TCardConfirmation }
  | { phase: 'error'; error: unknown };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });

/**
 * Confirms the card payment a page came back with (POST /card/confirm: the server reads the
 * intent from the provider and pays the order), asking again while the bank is processing it.
 * `settled` is any other status: succeeded, or a failure (requires_payment_method, canceled…)
 * with the provider's reason. Nothing is asked without a return (`null`).
 */
export function useCardConfirmation(
  cardReturn: CardReturn | null,
  { intervalMs = CARD_POLL_INTERVAL_MS, timeoutMs = CARD_POLL_TIMEOUT_MS } = {},
): { state: CardConfirmationState; retry: () => void } {
  const [state, setState] = useState<CardConfirmationState>({ phase: 'confirming' });
  const [attempt, setAttempt] = useState(0);
  const intentId = cardReturn?.intentId;
  const kind = cardReturn?.kind;

  useEffect(() => {
    if (!intentId || !kind) return;
    const controller = new AbortController();
    const { signal } = controller;
    const startedAt = Date.now();
    const run = async () => {
      try {
        for (;;) {
          const confirmation = await confirmCardIntent(confirmRequestOf({ kind, intentId }), signal);
          if (signal.aborted) return;
          if (confirmation.status !== 'processing') {
            setState({ phase: 'settled', confirmation });
            return;
          }
          const isSlow = Date.now() - startedAt + intervalMs > timeoutMs;
          setState({ phase: 'processing', confirmation, isSlow });
          if (isSlow) return;
          await sleep(intervalMs, signal);
          if (signal.aborted) return;
        }
      } catch (error) {
        if (!signal.aborted) setState({ phase: 'error', error });
      }
    };
    void run();
    return () => controller.abort();
  }, [intentId, kind, attempt, intervalMs, timeoutMs]);

  return {
    state,
    retry: () => {
      setState((current) => (current.phase === 'processing' ? { ...current, isSlow: false } : { phase: 'confirming' }));
      setAttempt((count) => count + 1);
    },
  };
}

/** Whether a settled card intent is a success (the card charged, or saved). */
export const isCardSucceeded = (confirmation: TCardConfirmation) => confirmation.status === 'succeeded';
