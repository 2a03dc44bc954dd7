import Close from '@mui/icons-material/Close';
import RestartAlt from '@mui/icons-material/RestartAlt';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { customizerOpened } from '../../../app/ui-slice';
import { settingsReset } from '../settings-slice';
import { SettingsForm } from './SettingsForm';

/** The theme customizer drawer (spec section 2). */
export function Customizer() {
  const open = useAppSelector((state) => state.ui.customizerOpen);
  const dispatch = useAppDispatch();
  const close = () => dispatch(customizerOpened(false));
  return (
    <Drawer anchor="right" open={open} onClose={close} data-testid="customizer">
      <Box sx={{ width: { xs: '100vw', sm: 360 }, p: 3 }} role="region" aria-labelledby="customizer-title">
        <Box sx={{ display: 'flex', alignItems: 'center', mb: 2 }}>
          <Box sx={{ flex: 1 }}>
            <Typography id="customizer-title" variant="h6" component="h2">
              Theme Customizer
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Customize and preview in real time
            </Typography>
          </Box>
          <Tooltip title="Reset to defaults">
            <IconButton aria-label="Reset settings" onClick={() => dispatch(settingsReset())}>
              <RestartAlt />
            </IconButton>
          </Tooltip>
          <IconButton aria-label="Close customizer" onClick={close}>
            <Close />
          </IconButton>
        </Box>
        <SettingsForm />
      </Box>
    </Drawer>
  );
}
