import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { safeUrl } from '@parley/chat-client';
import Markdown, { type Components } from 'react-markdown';

const components: Components = {
  a: ({ href, children }) => {
    const url = href ? safeUrl(href) : '';
    if (!url) return <span>{children}</span>;
    return (
      <Link href={url} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </Link>
    );
  },
};

/**
 * A bot's answer as Markdown. Raw HTML is never rendered (react-markdown's default; no rehype-raw),
 * images are left out, and links keep only http(s) and mailto addresses and open in a new tab.
 */
export function MarkdownText({ text }: { text: string }) {
  return (
    <Box
      sx={{
        wordBreak: 'break-word',
        '& > :first-of-type': { mt: 0 },
        '& > :last-child': { mb: 0 },
        '& p': { my: 0.75 },
        '& ul, & ol': { my: 0.75, pl: 2.5 },
        '& pre': { overflowX: 'auto', p: 1, borderRadius: 1, bgcolor: 'action.selected' },
        '& code': { fontFamily: 'monospace', fontSize: '0.875em' },
        '& table': { borderCollapse: 'collapse' },
        '& th, & td': { border: 1, borderColor: 'divider', px: 0.75 },
      }}
    >
      <Markdown components={components} urlTransform={safeUrl} disallowedElements={['img']} unwrapDisallowed>
        {text}
      </Markdown>
    </Box>
  );
}
