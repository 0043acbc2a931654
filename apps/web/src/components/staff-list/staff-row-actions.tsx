import MoreVertIcon from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useEffect, useId, useRef, useState } from 'react';

export type StaffRowAction = { key: string; label: string; onClick: () => void; isDestructive?: boolean };

/**
 * A staff list row's action menu, the last cell of the row. The grid moves focus between cells
 * with the arrow keys; when this cell gets it, the button takes it (`hasFocus`), and the grid's
 * `tabIndex` keeps the button out of the Tab order otherwise (one tab stop for the whole grid).
 */
export function StaffRowActions({
  label,
  actions,
  hasFocus,
  tabIndex,
}: {
  /** Names the row: "Actions for ada@example.com". */
  label: string;
  actions: StaffRowAction[];
  hasFocus: boolean;
  tabIndex: 0 | -1;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  useEffect(() => {
    if (hasFocus) button.current?.focus();
  }, [hasFocus]);
  return (
    <>
      <IconButton
        ref={button}
        size="small"
        tabIndex={tabIndex}
        aria-label={label}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => {
          // The row's own click opens its details; the menu is another thing.
          event.stopPropagation();
          setAnchor(event.currentTarget);
        }}
        // Enter and Space open the menu here, not the row's details (the grid listens on the
        // cell); the arrow keys still move between cells.
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') event.stopPropagation();
        }}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        // React passes a portal's events to its tree's parents: keys and clicks inside the menu
        // must reach neither the grid's keyboard navigation nor the row's click.
        onKeyDown={(event) => event.stopPropagation()}
        onClick={(event) => event.stopPropagation()}
      >
        {actions.map((action) => (
          <MenuItem
            key={action.key}
            sx={action.isDestructive ? { color: 'error.main' } : undefined}
            onClick={() => {
              setAnchor(null);
              action.onClick();
            }}
          >
            {action.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
