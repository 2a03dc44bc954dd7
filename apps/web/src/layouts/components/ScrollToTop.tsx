import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import Fab from '@mui/material/Fab';
import useScrollTrigger from '@mui/material/useScrollTrigger';
import Zoom from '@mui/material/Zoom';
import { UI_TIMING } from '@parley/contracts';

/** Appears after 400 px of scrolling (spec sections 2 and 9). */
export function ScrollToTop() {
  const visible = useScrollTrigger({ disableHysteresis: true, threshold: UI_TIMING.scrollTopAfterPx });
  return (
    <Zoom in={visible}>
      <Fab
        size="small"
        color="primary"
        aria-label="Scroll to top"
        onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        sx={{ position: 'fixed', bottom: 24, right: 24, zIndex: (theme) => theme.zIndex.speedDial }}
      >
        <KeyboardArrowUp />
      </Fab>
    </Zoom>
  );
}
