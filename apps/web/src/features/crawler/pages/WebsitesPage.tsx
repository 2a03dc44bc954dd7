import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { useAppSelector } from '../../../app/store';
import { KnowledgeTabs } from '../../knowledge/components/KnowledgeTabs';
import { useWebSourcesQuery } from '../api';
import { CrawlForm } from '../components/CrawlForm';
import { CrawlProgress } from '../components/CrawlProgress';
import { WebSourceList } from '../components/WebSourceList';

/** Knowledge: Websites. Crawl a site with live progress; web sources grouped by domain with their pages. */
export function WebsitesPage() {
  const me = useAppSelector((state) => state.session.user);
  const sources = useWebSourcesQuery(me?.tenant_id ?? 0, { skip: !me });
  const [taskId, setTaskId] = useState<string | null>(null);
  const done = useCallback(() => setTaskId(null), []);
  return (
    <>
      <KnowledgeTabs />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Websites
      </Typography>
      <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
        <CrawlForm onStarted={setTaskId} busy={taskId !== null} />
        {taskId ? <CrawlProgress taskId={taskId} onDone={done} /> : null}
      </Paper>
      <WebSourceList sources={sources.data ?? []} />
    </>
  );
}
