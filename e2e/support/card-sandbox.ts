import { expect as baseExpect, type Page } from '@playwright/test';

// Two busy cores: the card form and the sandbox answer within seconds.
const expect = baseExpect.configure({ timeout: 15_000 });

/** Fills the card form from the sandbox's list of test cards (Stripe's test card numbers). */
export async function useTestCard(page: Page, number: string) {
  const toggle = page.getByRole('button', { name: 'Test cards' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const spaced = number.replace(/(\d{4})(?=\d)/g, '$1 ');
  const use = page.getByRole('button', { name: `Use test card ${spaced}` });
  // Pressed again if the list was still unfolding when the first press landed (seen once under load).
  await expect(async () => {
    if (await use.isVisible()) await use.click({ timeout: 2_000 });
    await expect(page.getByRole('textbox', { name: 'Card number' })).toHaveValue(spaced, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  // The list folds away once a card is chosen.
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(use).toBeHidden();
}
