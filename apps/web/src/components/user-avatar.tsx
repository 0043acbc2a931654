import Avatar from '@mui/material/Avatar';

export type UserAvatarSize = 'small' | 'large';

/** Spec §2.2: 40 px (small, the top bar) or 96 px (large, the profile). */
export const AVATAR_SIZES: Record<UserAvatarSize, number> = { small: 40, large: 96 };

const firstLetter = (text: string) => (Array.from(text.trim())[0] ?? '').toLocaleUpperCase('en');

/**
 * The user's initials: the first letters of the first and last name; without a name, of the
 * email's local part (its first two words when it reads `ada.lovelace@…`, else its first letter).
 */
export function initialsOf(user: {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}): string {
  const names = [user.firstName, user.lastName].filter((name): name is string => Boolean(name?.trim()));
  if (names.length) return names.map(firstLetter).join('');
  const local = (user.email ?? '').split('@')[0] ?? '';
  const words = local.split(/[._+-]+/).filter(Boolean);
  return words.slice(0, 2).map(firstLetter).join('');
}

/**
 * The user's initials in a circle. It is decorative by default (the control around it names the
 * user); pass `label` where the avatar stands alone.
 */
export function UserAvatar({
  firstName,
  lastName,
  email,
  size = 'small',
  label,
}: {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  size?: UserAvatarSize;
  label?: string;
}) {
  const px = AVATAR_SIZES[size];
  return (
    <Avatar
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      sx={{
        width: px,
        height: px,
        fontSize: px * 0.4,
        fontWeight: 600,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
      }}
    >
      {initialsOf({ firstName, lastName, email })}
    </Avatar>
  );
}
