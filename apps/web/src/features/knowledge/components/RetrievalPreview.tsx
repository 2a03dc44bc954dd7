import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SearchHit, SearchResult } from '@parley/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchKnowledgeMutation } from '../api';

const SNIPPET = 280;
const isHttp = (url: string | null): url is string => Boolean(url && /^https?:\/\//i.test(url));

/** A question asked in a conversation, with the turn before it, as the bot read it. */
export type AskedInChat = { query: string; previousQuestion: string | null; previousAnswer: string | null };

/**
 * Which passages a question finds in a bot's sources, ranked, with their scores, and what the bot
 * would do. `asked` is a question of the conversation ("Why this answer?"), searched at once as the
 * bot read it: a follow-up with the question before it. A question typed here is read alone.
 */
export function RetrievalPreview({ botId, asked = null }: { botId: number; asked?: AskedInChat | null }) {
  const [query, setQuery] = useState(asked?.query ?? '');
  const [search, state] = useSearchKnowledgeMutation();
  useEffect(() => {
    if (!asked) return;
    setQuery(asked.query);
    void search({
      botId,
      body: {
        query: asked.query,
        limit: 8,
        previous_question: asked.previousQuestion,
        previous_answer: asked.previousAnswer,
      },
    });
  }, [asked, botId, search]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (query.trim()) void search({ botId, body: { query: query.trim(), limit: 8 } });
  };
  const result = state.data;
  return (
    <Stack spacing={2} sx={{ p: 2, width: { xs: '100vw', sm: 440 } }}>
      <Typography variant="h6" component="h2">
        What the bot finds
      </Typography>
      <Stack
        component="form"
        direction="row"
        spacing={1}
        onSubmit={submit}
        aria-label="Search the bot's sources"
      >
        <TextField
          id="retrieval-query"
          label="Question"
          size="small"
          fullWidth
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <Button type="submit" variant="contained" disabled={state.isLoading || !query.trim()}>
          Search
        </Button>
      </Stack>
      {state.isError ? <Alert severity="error">The search failed. Try again.</Alert> : null}
      {result ? <DecisionNote decision={result.decision} /> : null}
      {result ? (
        result.hits.length === 0 ? (
          <Typography color="text.secondary">Nothing in this bot's sources matches.</Typography>
        ) : (
          <List aria-label="Passages found" disablePadding>
            {result.hits.map((hit, index) => (
              <HitItem key={hit.chunk_id} hit={hit} rank={index + 1} />
            ))}
          </List>
        )
      ) : null}
      {result ? (
        <Typography variant="caption" color="text.secondary">
          Search: {result.mode === 'hybrid' ? 'full text and vectors, fused by rank' : 'full text'} · Read in{' '}
          {languageNames(result.languages)}
        </Typography>
      ) : null}
    </Stack>
  );
}

/**
 * What the bot would do with this question, and why (issue 30 item 2): the same decision a visitor's
 * question gets, so the owner sees what to add when it would not answer. The server says when the
 * bot's active model judges passages whose words fall short.
 */
function DecisionNote({ decision }: { decision: SearchResult['decision'] }) {
  const judged = decision.model_judges;
  const advice = adviceOf(decision);
  return (
    <Alert
      severity={decision.sure ? 'success' : decision.answers || judged ? 'info' : 'warning'}
      aria-label="What the bot would do"
    >
      {decision.follows_up ? (
        <Typography variant="caption" component="p" color="text.secondary">
          Read as a follow-up of “{decision.follows_up}”
        </Typography>
      ) : null}
      <Typography variant="body2">{decision.summary}</Typography>
      {advice ? (
        <Typography variant="caption" component="p" sx={{ mt: 0.5 }}>
          {advice}
        </Typography>
      ) : null}
      <Typography variant="caption" component="p" color="text.secondary">
        Covers {Math.round(decision.coverage * 100)}% of the question
      </Typography>
    </Alert>
  );
}

/** What the owner can do about a decision that is not a sure answer. */
function adviceOf(decision: SearchResult['decision']): string | null {
  if (decision.sure) return null;
  if (decision.model_judges)
    return "The bot's model reads these passages and answers only if they say it; if not, the bot says it does not know. A page or a Q&A pair in your customers' words makes it sure.";
  if (decision.answers)
    return "Without a language model, the bot quotes these sentences but says it is not sure, because they hold less than half of the question. A page or a Q&A pair in your customers' words makes it sure.";
  return 'Add a page or a Q&A pair that says it, and the bot will answer.';
}

function HitItem({ hit, rank }: { hit: SearchHit; rank: number }) {
  const title = hit.page_title ?? hit.page_url ?? 'Untitled';
  const snippet = hit.content.length > SNIPPET ? `${hit.content.slice(0, SNIPPET)}…` : hit.content;
  return (
    <ListItem divider sx={{ display: 'block', px: 0 }}>
      <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
        <Typography variant="subtitle2">
          {rank}.{' '}
          {isHttp(hit.page_url) ? (
            <Link href={hit.page_url} target="_blank" rel="noopener noreferrer">
              {title}
            </Link>
          ) : (
            title
          )}
          {hit.page_number ? ` · p. ${hit.page_number}` : ''}
        </Typography>
        <Chip size="small" label={hit.source_type} />
        <Chip size="small" variant="outlined" label={`score ${hit.score.toFixed(4)}`} />
        {hit.text_rank !== null ? (
          <Chip size="small" variant="outlined" label={`text ${hit.text_rank.toFixed(3)}`} />
        ) : null}
        {hit.vector_distance !== null ? (
          <Chip size="small" variant="outlined" label={`distance ${hit.vector_distance.toFixed(3)}`} />
        ) : null}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'pre-wrap' }}>
        {snippet}
      </Typography>
    </ListItem>
  );
}

/** "Spanish", "English and Spanish": the languages the bot's sources are read in. */
function languageNames(languages: string[]): string {
  const names = languages.map((language) => language.charAt(0).toUpperCase() + language.slice(1));
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'English');
}
