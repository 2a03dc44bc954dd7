import OpenInNew from '@mui/icons-material/OpenInNew';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import type { KeyboardEvent } from 'react';
import { NavLink } from 'react-router';
import type { MenuEntry } from '../../features/permissions/menu';
import { navIcon } from './nav-icons';

type Props = { entries: MenuEntry[]; collapsed: boolean; onNavigate?: () => void };

const NAV_KEYS = ['ArrowDown', 'ArrowUp', 'Home', 'End'];

/** Arrow keys move between entries, Home and End jump to the ends (Tab still works as usual). */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  if (!NAV_KEYS.includes(event.key)) return;
  const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[data-nav-item]'));
  const index = items.indexOf(document.activeElement as HTMLElement);
  const last = items.length - 1;
  const step = event.key === 'ArrowDown' ? Math.min(last, index + 1) : Math.max(0, index - 1);
  const next = event.key === 'Home' ? 0 : event.key === 'End' ? last : step;
  event.preventDefault();
  items[next]?.focus();
}

const itemSx = (collapsed: boolean) => ({
  borderRadius: 1,
  mb: 0.5,
  minHeight: 44,
  justifyContent: collapsed ? 'center' : 'flex-start',
  '&.active': { bgcolor: 'primary.main', color: 'primary.contrastText' },
  '&.active .MuiListItemIcon-root': { color: 'inherit' },
  '&.active:hover': { bgcolor: 'primary.dark' },
});

function EntryContent({ entry, collapsed }: { entry: MenuEntry; collapsed: boolean }) {
  return (
    <>
      <ListItemIcon sx={{ minWidth: collapsed ? 0 : 36, color: 'inherit' }}>
        {navIcon(entry.path)}
      </ListItemIcon>
      {collapsed ? null : <ListItemText primary={entry.label} />}
      {!collapsed && entry.external ? (
        <OpenInNew fontSize="inherit" titleAccess="opens in a new tab" />
      ) : null}
    </>
  );
}

function Entry({
  entry,
  collapsed,
  onNavigate,
}: {
  entry: MenuEntry;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const label = collapsed ? entry.label : undefined;
  const button = entry.external ? (
    <ListItemButton
      component="a"
      href={entry.path}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label}
      data-nav-item
      onClick={onNavigate}
      sx={itemSx(collapsed)}
    >
      <EntryContent entry={entry} collapsed={collapsed} />
    </ListItemButton>
  ) : (
    <ListItemButton
      component={NavLink}
      to={entry.path}
      aria-label={label}
      data-nav-item
      onClick={onNavigate}
      sx={itemSx(collapsed)}
    >
      <EntryContent entry={entry} collapsed={collapsed} />
    </ListItemButton>
  );
  return collapsed ? (
    <Tooltip title={entry.label} placement="right">
      {button}
    </Tooltip>
  ) : (
    button
  );
}

/** The side menu's entries; external ones (API Documentation) open in a new tab. */
export function NavList({ entries, collapsed, onNavigate }: Props) {
  return (
    <List component="nav" aria-label="Main menu" onKeyDown={moveFocus} sx={{ px: 1 }}>
      {entries.map((entry) => (
        <Entry key={entry.path} entry={entry} collapsed={collapsed} onNavigate={onNavigate} />
      ))}
    </List>
  );
}
