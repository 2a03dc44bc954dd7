import ThumbDownOutlined from '@mui/icons-material/ThumbDownOutlined';
import ThumbUpOutlined from '@mui/icons-material/ThumbUpOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { rateable } from '@parley/chat-client';
import type { ChatMessage } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { useChatTexts } from '../../chat/texts';
import { useRateAnswerMutation } from '../api';

type Rating = 'up' | 'down' | null;

/**
 * Thumbs up and down under a bot answer: pressing the chosen one again takes the rating back.
 * The playground rates as the signed-in owner; the full-page chat as its visitor, with the visitor's
 * token (the embeddable widget has its own). It starts from the rating the conversation's history
 * brought (the reader's own), so a reload shows it. Rated down, it offers a person when one may be
 * asked for (`onRequestHuman`).
 */
export function RateAnswer({
  message,
  visitorToken,
  onRequestHuman,
}: {
  message: ChatMessage;
  visitorToken?: string | null;
  onRequestHuman?: () => void;
}) {
  const t = useChatTexts();
  const saved = message.rating;
  const [rating, setRating] = useState<Rating>(saved ?? null);
  // A message first shown from the stream (no rating known) may be replaced by the history's copy.
  useEffect(() => {
    if (saved !== undefined) setRating(saved);
  }, [saved]);
  const [rate, { isLoading }] = useRateAnswerMutation();
  if (!rateable(message)) return null;
  const choose = async (next: 'up' | 'down') => {
    const value = rating === next ? null : next;
    const saved = await rate({
      message_id: message.id,
      rating: value,
      ...(visitorToken ? { visitor_token: visitorToken } : {}),
    })
      .unwrap()
      .catch(() => null);
    if (saved) setRating(saved.rating);
  };
  const thumbs = (
    <Stack direction="row" spacing={0.5} sx={{ mt: 0.5 }} data-testid="rate-answer">
      <IconButton
        size="small"
        aria-label={t.goodAnswer}
        aria-pressed={rating === 'up'}
        color={rating === 'up' ? 'primary' : 'default'}
        disabled={isLoading}
        onClick={() => choose('up')}
      >
        <ThumbUpOutlined fontSize="inherit" />
      </IconButton>
      <IconButton
        size="small"
        aria-label={t.badAnswer}
        aria-pressed={rating === 'down'}
        color={rating === 'down' ? 'error' : 'default'}
        disabled={isLoading}
        onClick={() => choose('down')}
      >
        <ThumbDownOutlined fontSize="inherit" />
      </IconButton>
    </Stack>
  );
  if (rating !== 'down' || !onRequestHuman) return thumbs;
  return (
    <>
      {thumbs}
      <Stack
        direction="row"
        spacing={1}
        alignItems="center"
        flexWrap="wrap"
        sx={{ mt: 0.5 }}
        data-testid="bad-answer-offer"
      >
        <Typography variant="body2" color="text.secondary">
          {t.badAnswerOffer}
        </Typography>
        <Button size="small" variant="outlined" onClick={onRequestHuman}>
          {t.person}
        </Button>
      </Stack>
    </>
  );
}
