import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { citationTitle, citesByNumber, safeUrl, syncedText } from '@parley/chat-client';
import { type ChatMessage, fillText, type MessageSourceRef } from '@parley/contracts';
import { useChatTexts } from '../texts';

function sourceKey(source: MessageSourceRef): string {
  return [source.source_type, source.page_url, source.page_title, source.page_number].join('|');
}

function SourceItem({ source }: { source: MessageSourceRef }) {
  const url = source.page_url ? safeUrl(source.page_url) : '';
  const title = citationTitle(source);
  const t = useChatTexts();
  const synced = syncedText(t, source.synced_at);
  return (
    <Typography component="li" variant="caption" color="text.secondary">
      {url ? (
        <Link href={url} target="_blank" rel="noopener noreferrer nofollow">
          {title}
        </Link>
      ) : (
        title
      )}
      {source.page_number !== null ? `, ${fillText(t.page, { n: source.page_number })}` : null}
      {synced ? ` · ${synced}` : null}
    </Typography>
  );
}

/**
 * Where an answer came from, under the answer: a Q&A badge, pages and sections linked, page numbers,
 * how fresh each is; numbered when the answer cites them as [n].
 */
export function MessageSources({ message }: { message: ChatMessage }) {
  const t = useChatTexts();
  const fromQna = message.qna_id !== null || message.answer_mode === 'qna';
  const unique = new Map<string, MessageSourceRef>();
  for (const source of message.sources) {
    if (source.source_type === 'qna' && fromQna) continue;
    unique.set(sourceKey(source), source);
  }
  const sources = [...unique.values()];
  if (!fromQna && sources.length === 0) return null;
  return (
    <Stack spacing={0.5} sx={{ mt: 0.75 }} data-testid="message-sources">
      {fromQna ? (
        <Chip
          size="small"
          color="success"
          variant="outlined"
          label={t.qna}
          aria-label={t.qnaTitle}
          sx={{ alignSelf: 'flex-start' }}
        />
      ) : null}
      {sources.length ? (
        <>
          <Typography variant="caption" fontWeight={600} color="text.secondary">
            {t.sources}
          </Typography>
          <Stack component={citesByNumber(message.message) ? 'ol' : 'ul'} spacing={0.25} sx={{ m: 0, pl: 2 }}>
            {sources.map((source) => (
              <SourceItem key={sourceKey(source)} source={source} />
            ))}
          </Stack>
        </>
      ) : null}
    </Stack>
  );
}
