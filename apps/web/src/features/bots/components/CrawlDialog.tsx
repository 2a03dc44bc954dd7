import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useCallback, useState } from 'react';
import { CrawlForm } from '../../crawler/components/CrawlForm';
import { CrawlProgress } from '../../crawler/components/CrawlProgress';

type Props = { open: boolean; onClose: () => void };

/** The Websites page's crawl form and progress in a dialog, so the page behind it keeps its state. */
export function CrawlDialog({ open, onClose }: Props) {
  const [taskId, setTaskId] = useState<string | null>(null);
  const done = useCallback(() => setTaskId(null), []);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="crawl-dialog-title">
      <DialogTitle id="crawl-dialog-title">Crawl a website</DialogTitle>
      <DialogContent sx={{ pt: 1 }}>
        <CrawlForm onStarted={setTaskId} busy={taskId !== null} />
        {taskId ? <CrawlProgress taskId={taskId} onDone={done} /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{taskId ? 'Close (the crawl goes on)' : 'Close'}</Button>
      </DialogActions>
    </Dialog>
  );
}
