import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';

/**
 * What a web source's last crawl told of the site as a whole (the page limit left pages unread, a
 * menu built by JavaScript hid the other pages), each with what to do: the owner would otherwise
 * believe the bot knows the whole site.
 */
export function CrawlNotices({ sourceId, notices }: { sourceId: number; notices: string[] }) {
  if (notices.length === 0) return null;
  return (
    <Stack spacing={0.5} sx={{ mt: 0.5 }} aria-label={`What the last crawl of website ${sourceId} found`}>
      {notices.map((notice) => (
        <Alert key={notice} severity="warning" variant="outlined" sx={{ py: 0 }}>
          {notice}
        </Alert>
      ))}
    </Stack>
  );
}
