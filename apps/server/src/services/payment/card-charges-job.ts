import type { Job } from '../../jobs/job.ts';

/** The queue of the card charges (a pg-boss schedule queues it). */
export const CARD_CHARGES_JOB = 'card-charges';

/**
 * Every five minutes, where cards are taken (services/payment/card-payments.ts): card intents left
 * unfinished for a minute are read again from the provider (a webhook lost while the server was
 * down still settles its order), then the monthly charges that are due are made on the saved
 * cards, with their retries. Each charge has a key per attempt at the provider and its schedule
 * row is locked while charged (SKIP LOCKED), so two nodes or a repeated run charge nothing twice.
 */
export const cardChargesJob: Job<object> = {
  name: CARD_CHARGES_JOB,
  options: { policy: 'stately', schedule: '*/5 * * * *', pollingIntervalSeconds: 30 },
  housekeeping: true,
  worker: ({ runtime: { cards } }) =>
    cards
      ? async () => {
          const now = new Date();
          await cards.reconcile(now);
          await cards.chargeDue(now);
        }
      : undefined,
};
