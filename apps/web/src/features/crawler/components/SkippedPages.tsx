import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import type { SkippedPage } from '@parley/contracts';
import { useState } from 'react';

/** "2 pages could not be read." after a crawl that skipped some; '' when it skipped none. */
export function skippedNote(count: number): string {
  if (count === 0) return '';
  return count === 1 ? '1 page could not be read.' : `${count} pages could not be read.`;
}

/**
 * The pages a web source's last crawl found but could not store (a broken link, a server error, a
 * page too large or built by JavaScript), each with why: the bot knows nothing of them until fixed.
 */
export function SkippedPages({ sourceId, pages }: { sourceId: number; pages: SkippedPage[] }) {
  const [open, setOpen] = useState(false);
  if (pages.length === 0) return null;
  const listId = `web-source-${sourceId}-skipped`;
  return (
    <>
      <Button
        size="small"
        color="warning"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        sx={{ px: 0 }}
      >
        {skippedNote(pages.length)} {open ? 'Hide' : 'Show which'}
      </Button>
      <Collapse in={open} unmountOnExit id={listId}>
        <List dense aria-label="Pages the last crawl could not read">
          {pages.map((page) => (
            <ListItem key={page.url} disableGutters>
              <ListItemText
                primary={
                  <Link href={page.url} target="_blank" rel="noopener noreferrer">
                    {page.url}
                  </Link>
                }
                secondary={page.reason}
              />
            </ListItem>
          ))}
        </List>
      </Collapse>
    </>
  );
}
