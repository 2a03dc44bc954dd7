import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { MESSAGES } from '@parley/contracts';
import { useEffect } from 'react';
import { useAppDispatch } from '../../../app/store';
import { useNotify } from '../../../shared/hooks/useNotify';
import { refreshCrawlerLists, useCrawlStatusQuery } from '../api';

/** Polls a crawl's status every second; announces the end and hands back control. */
export function CrawlProgress({ taskId, onDone }: { taskId: string; onDone: () => void }) {
  const notify = useNotify();
  const dispatch = useAppDispatch();
  const { data, isError } = useCrawlStatusQuery(taskId, { pollingInterval: 1000 });
  const status = data?.status;

  useEffect(() => {
    // The status could not be read (the error toast says why): stop polling.
    if (isError) onDone();
  }, [isError, onDone]);

  useEffect(() => {
    if (!data) return;
    if (data.status === 'completed') {
      notify.success(MESSAGES.crawler.completed(data.pages_crawled));
      dispatch(refreshCrawlerLists());
      onDone();
    } else if (data.status === 'failed') {
      notify.error(data.error_message ?? MESSAGES.crawler.startFailed);
      dispatch(refreshCrawlerLists());
      onDone();
    }
  }, [data, notify, dispatch, onDone]);

  if (status === 'completed' || status === 'failed') return null;
  const running = status === 'running';
  return (
    <Box sx={{ my: 2 }} aria-live="polite">
      <Typography variant="body2" sx={{ mb: 0.5 }}>
        {running ? `Crawling… ${data?.pages_crawled ?? 0} pages so far` : 'Waiting to start…'}
      </Typography>
      <LinearProgress
        variant={running ? 'determinate' : 'indeterminate'}
        value={data?.percentage ?? 0}
        aria-label="Crawl progress"
      />
    </Box>
  );
}
