/** Password policy of spec §5, also enforced by the identity pool. */
export const PASSWORD_RULES = [
  {
    id: 'length',
    label: 'At least 8 characters',
    test: (p: string) => p.length >= 8,
  },
  {
    id: 'lower',
    label: 'A lowercase letter',
    test: (p: string) => /[a-z]/.test(p),
  },
  {
    id: 'upper',
    label: 'An uppercase letter',
    test: (p: string) => /[A-Z]/.test(p),
  },
  { id: 'digit', label: 'A number', test: (p: string) => /[0-9]/.test(p) },
  {
    id: 'symbol',
    label: 'A symbol',
    // Cognito's symbol set: ^ $ * . [ ] { } ( ) ? " ! @ # % & / \ , > < ' : ; | _ ~ ` = + - and space.
    test: (p: string) => /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/.test(p),
  },
] as const;

export function passwordMeetsPolicy(password: string): boolean {
  return password.length <= 256 && PASSWORD_RULES.every((rule) => rule.test(password));
}
