import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useMemo } from 'react';
import { NavLink } from 'react-router';
import { useAbility } from '../../features/permissions/hooks/useAbility';
import { horizontalMenuFor } from '../../features/permissions/menu';
import { navIcon } from './nav-icons';

/** The horizontal layout's menu: Home and Access Control, then the entries the user may read. */
export function HorizontalNav() {
  const ability = useAbility();
  const entries = useMemo(() => horizontalMenuFor(ability), [ability]);
  return (
    <Box
      component="nav"
      aria-label="Main menu"
      data-testid="nav-horizontal"
      sx={{
        display: 'flex',
        gap: 0.5,
        px: 2,
        py: 1,
        overflowX: 'auto',
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      {entries.map((entry) =>
        entry.external ? (
          <Button
            key={entry.path}
            href={entry.path}
            target="_blank"
            rel="noopener noreferrer"
            startIcon={navIcon(entry.path)}
            color="inherit"
          >
            {entry.label}
          </Button>
        ) : (
          <Button
            key={entry.path}
            component={NavLink}
            to={entry.path}
            startIcon={navIcon(entry.path)}
            color="inherit"
            sx={{ flexShrink: 0, '&.active': { bgcolor: 'primary.main', color: 'primary.contrastText' } }}
          >
            {entry.label}
          </Button>
        ),
      )}
    </Box>
  );
}
