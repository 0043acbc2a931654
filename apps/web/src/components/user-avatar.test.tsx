import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { initialsOf, UserAvatar } from './user-avatar.tsx';

describe('initialsOf', () => {
  it('takes the first letters of the first and last name', () => {
    expect(initialsOf({ firstName: 'ada', lastName: 'lovelace', email: 'x@example.com' })).toBe('AL');
    expect(initialsOf({ firstName: 'Ada', lastName: null, email: 'x@example.com' })).toBe('A');
  });

  it('falls back to the email when there is no name', () => {
    expect(initialsOf({ firstName: null, lastName: '  ', email: 'grace.hopper@example.com' })).toBe('GH');
    expect(initialsOf({ email: 'ada@example.com' })).toBe('A');
    expect(initialsOf({})).toBe('');
  });
});

describe('UserAvatar', () => {
  it('is 40 px small and 96 px large', () => {
    renderWithProviders(
      <>
        <UserAvatar firstName="Ada" lastName="Lovelace" label="Small avatar" />
        <UserAvatar firstName="Ada" lastName="Lovelace" size="large" label="Large avatar" />
      </>,
    );
    const small = screen.getByRole('img', { name: 'Small avatar' });
    const large = screen.getByRole('img', { name: 'Large avatar' });
    expect(small).toHaveTextContent('AL');
    expect(getComputedStyle(small).width).toBe('40px');
    expect(getComputedStyle(small).height).toBe('40px');
    expect(getComputedStyle(large).width).toBe('96px');
    expect(getComputedStyle(large).height).toBe('96px');
  });

  it('is hidden from screen readers without a label (the control around it names the user)', () => {
    const { container } = renderWithProviders(<UserAvatar email="grace@example.com" />);
    const avatar = container.querySelector('.MuiAvatar-root')!;
    expect(avatar).toHaveTextContent('G');
    expect(avatar).toHaveAttribute('aria-hidden', 'true');
  });
});
