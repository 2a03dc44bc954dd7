import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { CrawlBody, MESSAGES } from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useStartCrawlMutation } from '../api';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** How include and exclude patterns read (the API docs' CRAWL_PATTERN_SYNTAX, in a line). */
const PATTERN_HELP =
  'Matched anywhere in the path and query. Globs: /blog/* (* any characters, ? one). Between slashes, an RE2 regular expression: /^\\/docs\\//';

/**
 * The address as typed, with https:// in front when it has no scheme: people type their site as
 * they say it ("oldforge.co.uk", "www.oldforge.co.uk/menu").
 */
export function withScheme(typed: string): string {
  const url = typed.trim();
  return /^[a-z][a-z\d+.-]*:/i.test(url) || !/^[^\s/]+\.[^\s/]+/.test(url) ? url : `https://${url}`;
}

const EXCLUDE_HELP =
  'PDF, Word and Excel files the pages link to on the same site (a menu, a price list) are read too, each counted as a page: *.pdf leaves PDFs out.';

/**
 * Starts a crawl: URL and page limit, with depth, patterns and the sitemap under "Advanced". A refusal
 * (the server's detail) stays in the form until the next try: in a dialog a toast would vanish behind it.
 */
export function CrawlForm({ onStarted, busy }: { onStarted: (taskId: string) => void; busy: boolean }) {
  const notify = useNotify();
  const [startCrawl, { isLoading }] = useStartCrawlMutation();
  const [url, setUrl] = useState('');
  const [maxPages, setMaxPages] = useState('50');
  const [maxDepth, setMaxDepth] = useState('3');
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [useSitemap, setUseSitemap] = useState(true);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = CrawlBody.safeParse({
      url: withScheme(url),
      max_pages: Number(maxPages),
      max_depth: Number(maxDepth),
      include_patterns: lines(include).length ? lines(include) : undefined,
      exclude_patterns: lines(exclude).length ? lines(exclude) : undefined,
      use_sitemap: useSitemap,
    });
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? MESSAGES.crawler.startFailed);
      return;
    }
    setInvalid(null);
    setRefused(null);
    try {
      const started = await startCrawl(parsed.data).unwrap();
      notify.success(MESSAGES.crawler.started);
      onStarted(started.task_id);
    } catch (error) {
      setRefused(serverDetail(error) ?? MESSAGES.crawler.startFailed);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Crawl a website">
      {refused ? (
        <Alert severity="error" onClose={() => setRefused(null)} sx={{ mb: 2 }}>
          {refused}
        </Alert>
      ) : null}
      {/* Top-aligned, the page limit and the button never shrink: a helper text under the URL or a
          narrow dialog cannot push the button over the Max pages field. */}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        alignItems={{ xs: 'stretch', sm: 'flex-start' }}
        sx={{ mb: 1 }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <TextInput
            id="crawl-url"
            label="Website URL"
            placeholder="https://example.com"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            error={invalid !== null}
            helperText={invalid ?? undefined}
          />
        </Box>
        <Box sx={{ width: { xs: '100%', sm: 140 }, flexShrink: 0 }}>
          <TextInput
            id="crawl-max-pages"
            label="Max pages"
            type="number"
            value={maxPages}
            onChange={(e) => setMaxPages(e.target.value)}
          />
        </Box>
        <Button
          type="submit"
          variant="contained"
          disabled={isLoading || busy}
          sx={{ whiteSpace: 'nowrap', flexShrink: 0, minHeight: 40 }}
        >
          Start crawling
        </Button>
      </Stack>
      <Accordion disableGutters elevation={0} sx={{ '&:before': { display: 'none' } }}>
        <AccordionSummary aria-controls="crawl-advanced" id="crawl-advanced-header">
          <Typography variant="body2">Advanced options</Typography>
        </AccordionSummary>
        <AccordionDetails id="crawl-advanced">
          <Stack spacing={2}>
            <TextInput
              id="crawl-max-depth"
              label="Max depth"
              type="number"
              value={maxDepth}
              onChange={(e) => setMaxDepth(e.target.value)}
              fullWidth={false}
              sx={{ width: 140 }}
            />
            <TextInput
              id="crawl-include"
              label="Include patterns (one per line)"
              multiline
              minRows={2}
              value={include}
              onChange={(e) => setInclude(e.target.value)}
              helperText={PATTERN_HELP}
            />
            <TextInput
              id="crawl-exclude"
              label="Exclude patterns (one per line)"
              multiline
              minRows={2}
              value={exclude}
              onChange={(e) => setExclude(e.target.value)}
              helperText={EXCLUDE_HELP}
            />
            <FormControlLabel
              control={<Switch checked={useSitemap} onChange={(e) => setUseSitemap(e.target.checked)} />}
              label="Use sitemap.xml"
            />
          </Stack>
        </AccordionDetails>
      </Accordion>
    </form>
  );
}
