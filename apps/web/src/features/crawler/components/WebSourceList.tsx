import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MESSAGES, SYNC_TEXTS, type SyncScheduleBody, type WebSource } from '@parley/contracts';
import { useCallback, useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { SyncScheduleControl, syncSummary } from '../../../shared/components/SyncSchedule';
import { useNotify } from '../../../shared/hooks/useNotify';
import { failureText } from '../../roles/failure';
import { useDeleteWebSourceMutation, useRecrawlMutation, useSetWebSourceScheduleMutation } from '../api';
import { CrawlNotices } from './CrawlNotices';
import { CrawlProgress } from './CrawlProgress';
import { SkippedPages } from './SkippedPages';
import { WebSourcePages } from './WebSourcePages';

const domainOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** The tenant's web sources grouped by domain; each opens to its pages. */
export function WebSourceList({ sources }: { sources: WebSource[] }) {
  const notify = useNotify();
  const [deleteWebSource, deleting] = useDeleteWebSourceMutation();
  const [confirming, setConfirming] = useState<WebSource | null>(null);
  const groups = new Map<string, WebSource[]>();
  for (const source of sources) {
    const domain = domainOf(source.base_url);
    groups.set(domain, [...(groups.get(domain) ?? []), source]);
  }

  const remove = async () => {
    if (!confirming) return;
    try {
      const reply = await deleteWebSource(confirming.source_id).unwrap();
      notify.success(reply.message || MESSAGES.crawler.sourceDeleted);
    } catch (e) {
      notify.error(serverDetail(e) ?? MESSAGES.crawler.deleteSourceFailed);
    }
    setConfirming(null);
  };

  if (sources.length === 0)
    return (
      <Typography color="text.secondary">No websites crawled yet. Start with your site's address.</Typography>
    );

  return (
    <>
      {[...groups.entries()].map(([domain, list]) => (
        <Box key={domain} component="section" aria-label={domain} sx={{ mb: 3 }}>
          <Typography variant="h6" component="h2">
            {domain}
          </Typography>
          {list.map((source) => (
            <WebSourceRow key={source.source_id} source={source} onDelete={() => setConfirming(source)} />
          ))}
        </Box>
      ))}
      <ConfirmDialog
        open={confirming !== null}
        title="Delete web source"
        text={`Delete ${confirming?.name ?? ''} and all of its pages? Bots stop using them.`}
        confirmLabel="Delete"
        busy={deleting.isLoading}
        onConfirm={remove}
        onClose={() => setConfirming(null)}
      />
    </>
  );
}

/**
 * A web source: its name, URL, page count, last sync with what it changed, what it told of the site
 * (a page limit reached, a scripted menu) and the pages it could not read; its re-crawl schedule,
 * a re-crawl button with that crawl's progress, a toggle for its pages and its delete button.
 */
function WebSourceRow({ source, onDelete }: { source: WebSource; onDelete: () => void }) {
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [setSchedule, scheduling] = useSetWebSourceScheduleMutation();
  const [recrawl, recrawling] = useRecrawlMutation();
  const [started, setStarted] = useState<string | null>(null);
  const done = useCallback(() => setStarted(null), []);
  const pagesId = `web-source-${source.source_id}-pages`;

  const onSchedule = async (body: SyncScheduleBody) => {
    try {
      await setSchedule({ sourceId: source.source_id, body }).unwrap();
      notify.success(SYNC_TEXTS.scheduleSaved);
    } catch (e) {
      notify.error(failureText(SYNC_TEXTS.scheduleFailed, e));
    }
  };
  const onRecrawl = async () => {
    try {
      setStarted((await recrawl(source.source_id).unwrap()).task_id);
    } catch (e) {
      notify.error(failureText(SYNC_TEXTS.recrawlFailed, e));
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 1.5, mb: 1 }} data-testid="web-source">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography>{source.name}</Typography>
          <Typography variant="caption" color="text.secondary" component="p">
            {source.base_url} · {source.page_count} pages
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p" data-testid="sync-summary">
            {syncSummary(source.last_crawled_at, source)}
            {/* One started elsewhere (the form, the schedule); Re-crawl now follows it. */}
            {source.sync_task_id && !started ? ' · a crawl is queued or running' : ''}
          </Typography>
          <CrawlNotices sourceId={source.source_id} notices={source.last_notices} />
          <SkippedPages sourceId={source.source_id} pages={source.last_skipped_pages} />
        </Box>
        <Button size="small" onClick={onRecrawl} disabled={started !== null || recrawling.isLoading}>
          Re-crawl now
        </Button>
        <Button size="small" aria-expanded={open} aria-controls={pagesId} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide pages' : 'Show pages'}
        </Button>
        <Button color="error" size="small" onClick={onDelete}>
          Delete web source
        </Button>
      </Stack>
      <Box sx={{ mt: 1.5 }}>
        <SyncScheduleControl state={source} disabled={scheduling.isLoading} onChange={onSchedule} />
      </Box>
      {started ? <CrawlProgress taskId={started} onDone={done} /> : null}
      <Collapse in={open} unmountOnExit id={pagesId}>
        <Box sx={{ mt: 1 }}>
          <WebSourcePages sourceId={source.source_id} />
        </Box>
      </Collapse>
    </Paper>
  );
}
