import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { renderMarkdown } from '@parley/chat-client/markdown';
import { useMemo } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageHeader } from '../../../shared/components/PageHeader';

/** The operators' guides of the integrations, from the repository's docs/ (one source, read here). */
const GUIDES = import.meta.glob<string>('../../../../../../docs/connecting-*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});
const guideOf = (slug: string): string | null => {
  const entry = Object.entries(GUIDES).find(([path]) => path.endsWith(`/${slug}.md`));
  return entry ? entry[1] : null;
};

/**
 * /help/:slug: an integration's operator guide ("Connecting Instagram"...), which the Integrations
 * cards link to when this install is not set up for them: the console itself, never a site outside.
 */
export function HelpPage() {
  const { slug = '' } = useParams();
  const text = guideOf(slug);
  const title = text?.match(/^# (.+)$/m)?.[1] ?? 'Guide';
  const html = useMemo(
    () => (text ? renderMarkdown(text.replace(/^# .+\n/, ''), { imageHosts: [] }) : ''),
    [text],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle="A guide for the person who runs this Parley install."
        actions={
          <Button component={RouterLink} to="/integrations">
            Back to Integrations
          </Button>
        }
      />
      {text ? (
        <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
          <Box
            // Sanitised by renderMarkdown (DOMPurify, a short list of tags, safe links only).
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised Markdown of the repository's own docs
            dangerouslySetInnerHTML={{ __html: html }}
            sx={{
              maxWidth: 860,
              '& h2': { typography: 'h6', mt: 3, mb: 1 },
              '& h2:first-of-type': { mt: 0 },
              '& p, & li': { typography: 'body2', lineHeight: 1.7 },
              '& ul, & ol': { pl: 3 },
              '& code': {
                fontFamily: 'monospace',
                fontSize: '0.85em',
                bgcolor: 'action.hover',
                px: 0.5,
                borderRadius: 0.5,
              },
              '& table': { borderCollapse: 'collapse', my: 1.5 },
              '& th, & td': {
                border: 1,
                borderColor: 'divider',
                px: 1,
                py: 0.5,
                typography: 'body2',
                textAlign: 'left',
              },
            }}
          />
        </Paper>
      ) : (
        <Alert severity="warning">There is no guide by this name.</Alert>
      )}
    </>
  );
}
