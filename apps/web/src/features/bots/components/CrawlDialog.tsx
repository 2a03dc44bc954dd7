import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useCallback, useState } from 'react';
import { CrawlForm } from '../../crawler/components/CrawlForm';
import { type CrawlOutcome, CrawlProgress } from '../../crawler/components/CrawlProgress';

type Props = { open: boolean; onClose: () => void };

/**
 * The Websites page's crawl form and progress in a dialog, so the page behind it keeps its state.
 * Everything it says stays inside it: a refused start in the form, and the crawl's result at the top
 * (a toast would show behind the dialog and vanish).
 */
export function CrawlDialog({ open, onClose }: Props) {
  const [taskId, setTaskId] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<CrawlOutcome | null>(null);
  const done = useCallback((result?: CrawlOutcome) => {
    setTaskId(null);
    setOutcome(result ?? null);
  }, []);
  const started = useCallback((id: string) => {
    setOutcome(null);
    setTaskId(id);
  }, []);
  const close = () => {
    setOutcome(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="md" aria-labelledby="crawl-dialog-title">
      <DialogTitle id="crawl-dialog-title">Crawl a website</DialogTitle>
      <DialogContent sx={{ pt: 1 }}>
        {outcome ? (
          <Alert severity={outcome.ok ? 'success' : 'error'} sx={{ mb: 2 }} aria-label="Crawl result">
            {outcome.message}
            {outcome.ok ? ' The website is ticked for this bot.' : null}
          </Alert>
        ) : null}
        <CrawlForm onStarted={started} busy={taskId !== null} />
        {taskId ? <CrawlProgress taskId={taskId} onDone={done} quiet /> : null}
      </DialogContent>
      <DialogActions>
        {outcome?.ok ? (
          <Button variant="contained" onClick={close}>
            Done
          </Button>
        ) : (
          <Button onClick={close}>{taskId ? 'Close (the crawl goes on)' : 'Close'}</Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
