import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { type Bot, MESSAGES, type QnA, type UnansweredGroup } from '@parley/contracts';
import { useEffect, useState } from 'react';
import type { PagePreload } from '../../../app/preload';
import { serverDetail } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { botsApi } from '../../bots/api';
import { BotPicker, botInAddress, useBotSelection } from '../../bots/components/BotPicker';
import { KnowledgeTabs } from '../../knowledge/components/KnowledgeTabs';
import { qnaApi, useDeleteAllQnasMutation, useDeleteQnaMutation, useQnasQuery } from '../api';
import { QnaDialog } from '../components/QnaDialog';
import { QnaTable } from '../components/QnaTable';
import { TrainingStatus } from '../components/TrainingStatus';
import { UnansweredQuestions } from '../components/UnansweredQuestions';
import { useQnaTraining } from '../hooks/useQnaTraining';
import { isTrainingBusy, trainedSummary } from '../training';

/** The bots start with the route, and the pairs and unanswered questions of the bot the address names. */
export const preload: PagePreload = ({ dispatch, user, url }) => {
  dispatch(botsApi.util.prefetch('botsOfUser', user.id, {}));
  const botId = botInAddress(url.searchParams);
  if (botId === null) return;
  dispatch(qnaApi.util.prefetch('qnas', botId, {}));
  dispatch(qnaApi.util.prefetch('unanswered', botId, {}));
};

/** Knowledge: Q&A. Pick a bot (remembered as `?bot=ID`), manage its pairs and train it on them. */
export function QnaPage() {
  const selection = useBotSelection();
  return (
    <>
      <KnowledgeTabs />
      <PageHeader
        title="Q&A"
        subtitle="Question-and-answer pairs a bot answers with first. Each pair is trained as soon as it is saved."
      />
      <Box sx={{ mb: 3 }}>
        <BotPicker selection={selection} />
      </Box>
      {/* Keyed by bot: switching bots starts from a clean training state and closed dialogs. */}
      {selection.bot ? <BotQna key={selection.bot.bot_id} bot={selection.bot} /> : null}
    </>
  );
}

function BotQna({ bot }: { bot: Bot }) {
  const botId = bot.bot_id;
  const notify = useNotify();
  const [pollMs, setPollMs] = useState(0);
  // Pairs train within seconds of being saved: the list is read again until none is training.
  const qnas = useQnasQuery(botId, { pollingInterval: pollMs });
  const anyTraining = (qnas.data ?? []).some((pair) => pair.training);
  useEffect(() => setPollMs(anyTraining ? 1000 : 0), [anyTraining]);
  const { state: training, start } = useQnaTraining(botId);
  const [editing, setEditing] = useState<{ pair?: QnA; unanswered?: UnansweredGroup } | null>(null);
  const [deleting, setDeleting] = useState<QnA | null>(null);
  const [deletingAll, setDeletingAll] = useState(false);
  const [deleteQna, deleteState] = useDeleteQnaMutation();
  const [deleteAll, deleteAllState] = useDeleteAllQnasMutation();

  const fetchError = qnas.isError ? (serverDetail(qnas.error) ?? MESSAGES.qna.fetchFailed) : null;
  useEffect(() => {
    if (fetchError) notify.error(fetchError);
  }, [fetchError, notify]);

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      const { message } = await deleteQna({ id: deleting.id, botId }).unwrap();
      notify.success(message);
    } catch (error) {
      notify.error(serverDetail(error) ?? MESSAGES.qna.deleteFailed);
    }
    setDeleting(null);
  };
  const confirmDeleteAll = async () => {
    try {
      const { message } = await deleteAll(botId).unwrap();
      notify.success(message);
    } catch (error) {
      notify.error(serverDetail(error) ?? MESSAGES.qna.deleteAllFailed);
    }
    setDeletingAll(false);
  };

  const pairs = qnas.data ?? [];
  const summary = trainedSummary(pairs);
  const busy = isTrainingBusy(training);
  return (
    <Card variant="outlined" component="section" aria-label={`Q&A of ${bot.bot_name}`}>
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
          <Box sx={{ flex: '1 1 200px' }}>
            <Typography variant="h6" component="h2">
              {bot.bot_name}
            </Typography>
            {pairs.length > 0 ? (
              <Typography variant="body2" color="text.secondary">
                {summary.text}
                {summary.untrained > 0 ? ` · ${summary.untrained} not trained yet` : ''}
              </Typography>
            ) : null}
          </Box>
          <Button variant="contained" onClick={() => setEditing({})}>
            Add Q&A
          </Button>
          <Button variant="outlined" onClick={start} disabled={busy || pairs.length === 0}>
            Train
          </Button>
          <Button color="error" onClick={() => setDeletingAll(true)} disabled={busy || pairs.length === 0}>
            Delete all
          </Button>
        </Box>

        <TrainingStatus state={training} />

        <UnansweredQuestions
          botId={botId}
          botName={bot.bot_name}
          onAnswer={(unanswered) => setEditing({ unanswered })}
        />

        {fetchError ? <Alert severity="error">{fetchError}</Alert> : null}
        {qnas.isLoading ? <CircularProgress aria-label="Loading Q&A pairs" /> : null}
        {qnas.isSuccess && pairs.length === 0 ? (
          <Typography color="text.secondary">
            No Q&A pairs yet. Add the questions your visitors ask and the answers the bot should give.
          </Typography>
        ) : null}
        {pairs.length > 0 ? (
          <QnaTable
            botName={bot.bot_name}
            pairs={pairs}
            onEdit={(pair) => setEditing({ pair })}
            onDelete={setDeleting}
          />
        ) : null}
      </CardContent>

      {editing ? (
        <QnaDialog
          key={editing.pair?.id ?? (editing.unanswered ? `unanswered-${editing.unanswered.id}` : 'new')}
          botId={botId}
          pair={editing.pair}
          unanswered={editing.unanswered}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Q&A"
        text={`Delete "${deleting?.question ?? ''}"? The bot will no longer answer with it.`}
        confirmLabel="Delete"
        busy={deleteState.isLoading}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
      <ConfirmDialog
        open={deletingAll}
        title="Delete all Q&As"
        text={`Delete all ${pairs.length} Q&A pairs of ${bot.bot_name}? The bot will no longer answer with them.`}
        confirmLabel="Delete all"
        busy={deleteAllState.isLoading}
        onConfirm={confirmDeleteAll}
        onClose={() => setDeletingAll(false)}
      />
    </Card>
  );
}
