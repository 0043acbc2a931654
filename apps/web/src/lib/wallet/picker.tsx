import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { useCallback, useId, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/*
 * The wallet picker. It imports nothing of wagmi or viem: a page that loads the wallet layer only
 * when it pays (the QNT payment) renders it from its own chunk, and hands `choose` to the actions.
 */

/** A wallet the page can use: one announced through EIP-6963 (its name and icon), or `window.ethereum`. */
export type WalletOption = {
  /** The connector's id: the wallet's rdns (e.g. io.metamask), or 'injected' for `window.ethereum`. */
  id: string;
  name: string;
  /** A data URI (EIP-6963 requires one); absent for `window.ethereum`. */
  icon?: string | undefined;
};

/** Asks the user which wallet to use; resolves with the option's id, or null when they closed the picker. */
export type WalletChooser = (options: readonly WalletOption[]) => Promise<string | null>;

/** The id of the generic connector reading `window.ethereum` (it names itself only "Injected"). */
export const GENERIC_WALLET_ID = 'injected';

/**
 * The picker as a dialog: one button per wallet with its icon and name. Arrow keys move between
 * them, Enter chooses, Escape or Cancel closes without choosing. The first wallet has the focus.
 */
export function WalletPickerDialog({
  options,
  onChoose,
  onCancel,
}: {
  options: readonly WalletOption[] | null;
  onChoose: (id: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('common');
  const titleId = useId();
  const listRef = useRef<HTMLUListElement>(null);

  const handleKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...(listRef.current?.querySelectorAll<HTMLElement>('[data-wallet-option]') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const next = event.key === 'ArrowDown' ? at + 1 : at - 1;
    buttons[(next + buttons.length) % buttons.length]?.focus();
    event.preventDefault();
  };

  return (
    <Dialog open={options !== null} onClose={onCancel} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{t('wallet.picker.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t('wallet.picker.description')}
        </Typography>
        <List ref={listRef} onKeyDown={handleKeyDown} sx={{ p: 0 }}>
          {(options ?? []).map((option, index) => (
            <ListItem key={option.id} disablePadding sx={{ mb: 1 }}>
              <ListItemButton
                data-wallet-option
                autoFocus={index === 0}
                onClick={() => onChoose(option.id)}
                sx={{
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 1,
                  gap: 1.5,
                  py: 1.25,
                  // Keyboard focus (MUI's focusVisible: not after a mouse click) shows a ring in the
                  // primary colour; the light grey focus background alone is hard to see.
                  '&.Mui-focusVisible': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 },
                }}
              >
                {option.icon ? (
                  <Box component="img" src={option.icon} alt="" sx={{ width: 32, height: 32, borderRadius: 1 }} />
                ) : (
                  <AccountBalanceWalletOutlinedIcon sx={{ width: 32, height: 32 }} color="action" aria-hidden />
                )}
                <Typography component="span" sx={{ fontWeight: 600 }}>
                  {option.id === GENERIC_WALLET_ID ? t('wallet.picker.browserWallet') : option.name}
                </Typography>
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button color="inherit" onClick={onCancel}>
          {t('actions.cancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The picker for a page: `choose` opens the dialog and resolves with the user's choice; render
 * `dialog` once somewhere in the page.
 */
export function useWalletPicker(): { choose: WalletChooser; dialog: ReactElement } {
  const [asking, setAsking] = useState<{
    options: readonly WalletOption[];
    resolve: (id: string | null) => void;
  } | null>(null);

  const choose = useCallback<WalletChooser>((options) => new Promise((resolve) => setAsking({ options, resolve })), []);
  const answer = (id: string | null) => {
    asking?.resolve(id);
    setAsking(null);
  };

  return {
    choose,
    dialog: (
      <WalletPickerDialog
        options={asking?.options ?? null}
        onChoose={(id) => answer(id)}
        onCancel={() => answer(null)}
      />
    ),
  };
}
