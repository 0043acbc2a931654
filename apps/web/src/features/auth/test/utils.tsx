import { fireEvent, screen } from '@testing-library/react';
import type { RouteObject } from 'react-router';

/** An error as Amplify surfaces Cognito's: the exception name in `name`, Cognito's text in `message`. */
export function cognitoError(name: string, message = ''): Error {
  return Object.assign(new Error(message), { name });
}

/** Stand-ins for the pages a form navigates to, so a test can see where it landed. */
export function destinations(...paths: string[]): RouteObject[] {
  return paths.map((path) => ({ path, element: <p>{`Arrived at ${path}`}</p> }));
}

/** Types into a field and leaves it, as a user does ('onTouched' validation runs on leaving). */
export function fillIn(label: string | RegExp, value: string) {
  const input = screen.getByLabelText(label, { selector: 'input' });
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
  return input as HTMLInputElement;
}

export function press(name: string | RegExp) {
  fireEvent.click(screen.getByRole('button', { name }));
}

/** A promise the test settles when it wants, to look at the page while a call is in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A page's first render loads MUI and its styles; on a busy machine (two workers, other suites)
 * that alone can pass vitest's 5 s default, so the page suites allow more.
 */
export const SLOW_RENDER_MS = 20_000;
