import type { OutsideToolSetting } from '@connect/shared/light';

/**
 * One provider's adapter (lib/outside-tools/providers/): how its documented snippet loads, starts,
 * identifies, stops and forgets. Every call may throw (the provider's code is not ours): the
 * controller catches and logs (spec §8, "logged only").
 */
export type ToolAdapter = {
  /**
   * Loads the provider's script once per page (later calls reuse it) and switches the tool on for
   * `userId` (the portal's opaque user id, never an email). Rejects when the script cannot load.
   */
  start: (setting: OutsideToolSetting, userId: string | null) => Promise<void>;
  /**
   * Switches the tool off when consent is withdrawn: 'stopped', or 'reload' when the provider has no
   * way to stop its running code and only leaving the page ends it.
   */
  stop: () => 'stopped' | 'reload';
  /** The user signed out: the provider forgets who they were (the tool stays loaded for the next sign-in). */
  forget: () => void;
  /** The help widget only: opens the provider's widget. */
  open?: () => void;
};
