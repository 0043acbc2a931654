/**
 * Browser storage exactly as spec §4 uses it. Session storage: the session marker (role and user
 * id), the challenged user during a second-factor step, and a temporary password during the forced
 * new-password step. Local storage: `skipMfa`, remembered when a user skips MFA set-up.
 */
const SESSION_KEYS = {
  role: 'role',
  userUuid: 'userUuid',
  challengedUser: 'challengedUser',
  temporaryPassword: 'temporaryPassword',
} as const;
const SKIP_MFA_KEY = 'skipMfa';

export type ChallengedUser = { username: string };

export const session = {
  /** Spec §4: a session is restored only if a role and a user id exist in session storage. */
  hasMarker(): boolean {
    return Boolean(sessionStorage.getItem(SESSION_KEYS.role) && sessionStorage.getItem(SESSION_KEYS.userUuid));
  },
  userUuid(): string | null {
    return sessionStorage.getItem(SESSION_KEYS.userUuid);
  },
  role(): string | null {
    return sessionStorage.getItem(SESSION_KEYS.role);
  },
  setMarker(userUuid: string, role: string): void {
    sessionStorage.setItem(SESSION_KEYS.userUuid, userUuid);
    sessionStorage.setItem(SESSION_KEYS.role, role);
  },
  removeMarker(): void {
    sessionStorage.removeItem(SESSION_KEYS.userUuid);
    sessionStorage.removeItem(SESSION_KEYS.role);
  },
  challengedUser(): ChallengedUser | null {
    const raw = sessionStorage.getItem(SESSION_KEYS.challengedUser);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as ChallengedUser;
    } catch {
      return null;
    }
  },
  setChallengedUser(user: ChallengedUser): void {
    sessionStorage.setItem(SESSION_KEYS.challengedUser, JSON.stringify(user));
  },
  clearChallengedUser(): void {
    sessionStorage.removeItem(SESSION_KEYS.challengedUser);
  },
  temporaryPassword(): string | null {
    return sessionStorage.getItem(SESSION_KEYS.temporaryPassword);
  },
  setTemporaryPassword(password: string): void {
    sessionStorage.setItem(SESSION_KEYS.temporaryPassword, password);
  },
  clearTemporaryPassword(): void {
    sessionStorage.removeItem(SESSION_KEYS.temporaryPassword);
  },
  /** Sign-out clears the whole session storage (spec §4). */
  clearAll(): void {
    sessionStorage.clear();
  },
};

export const preferences = {
  skipMfa(): boolean {
    return localStorage.getItem(SKIP_MFA_KEY) === 'true';
  },
  setSkipMfa(value: boolean): void {
    localStorage.setItem(SKIP_MFA_KEY, String(value));
  },
  clearAll(): void {
    localStorage.clear();
  },
};
