import { MENU_COLLAPSED_KEY } from './layout-constants.ts';

/** Whether the side menu was left collapsed in this browser (main-layout.tsx). */
export function readMenuCollapsed(): boolean {
  try {
    return localStorage.getItem(MENU_COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

export function writeMenuCollapsed(value: boolean): void {
  try {
    localStorage.setItem(MENU_COLLAPSED_KEY, String(value));
  } catch {
    // Storage can be unavailable (private modes, quotas): the menu still works for this visit.
  }
}
