import { useCallback, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { SnackbarContext, type SnackbarMessage } from './snackbar-context.ts';
import type { SnackbarViewProps } from './snackbar-view.tsx';

/**
 * The one snackbar's state and API (spec §2.2, §9); `View` draws it, from the first message on
 * (snackbar-provider.tsx with MUI's snackbar, app/app.tsx with the same view loaded on first use).
 */
export function SnackbarHost({ children, View }: { children: ReactNode; View: ComponentType<SnackbarViewProps> }) {
  const [message, setMessage] = useState<(SnackbarMessage & { key: number }) | null>(null);
  const [isOpen, setIsOpen] = useState(false);

  const show = useCallback((next: SnackbarMessage) => {
    setMessage({ ...next, key: Date.now() });
    setIsOpen(true);
  }, []);
  const close = useCallback(() => setIsOpen(false), []);
  const api = useMemo(() => ({ show, close }), [show, close]);

  return (
    <SnackbarContext.Provider value={api}>
      {children}
      {message ? <View message={message} isOpen={isOpen} onClose={close} /> : null}
    </SnackbarContext.Provider>
  );
}
