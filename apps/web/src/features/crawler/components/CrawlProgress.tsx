import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { MESSAGES } from '@parley/contracts';
import { useEffect } from 'react';
import { useAppDispatch } from '../../../app/store';
import { useNotify } from '../../../shared/hooks/useNotify';
import { refreshCrawlerLists, useCrawlStatusQuery } from '../api';
import { skippedNote } from './SkippedPages';

/** How a crawl ended, for a caller that shows it itself (the crawl dialog, above its form). */
export type CrawlOutcome = { ok: boolean; message: string; pages: number };

type Props = {
  taskId: string;
  /** Called once the crawl ends (or its status cannot be read); with the outcome when it ended. */
  onDone: (outcome?: CrawlOutcome) => void;
  /** The caller shows the outcome (onDone's argument): no toast. */
  quiet?: boolean;
};

/** Polls a crawl's status every second; announces the end and hands back control. */
export function CrawlProgress({ taskId, onDone, quiet }: Props) {
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
      // The spec's sentence, then what the owner must know (also shown under the web source).
      const skipped = skippedNote(data.skipped_pages.length);
      const message = [MESSAGES.crawler.completed(data.pages_crawled), ...data.notices, skipped]
        .filter(Boolean)
        .join(' ');
      if (!quiet) notify.success(message);
      dispatch(refreshCrawlerLists());
      onDone({ ok: true, message, pages: data.pages_crawled });
    } else if (data.status === 'failed') {
      const message = data.error_message ?? MESSAGES.crawler.startFailed;
      if (!quiet) notify.error(message);
      dispatch(refreshCrawlerLists());
      onDone({ ok: false, message, pages: data.pages_crawled });
    }
  }, [data, notify, dispatch, onDone, quiet]);

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
