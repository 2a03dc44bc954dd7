import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import Typography from '@mui/material/Typography';
import { BOTS_SUBJECT, type UnansweredGroup } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { TablePager, usePaging } from '../../../shared/components/TablePager';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAbility } from '../../permissions/hooks/useAbility';
import {
  useDismissManyUnansweredMutation,
  useDismissUnansweredMutation,
  useQnasQuery,
  useRestoreUnansweredMutation,
  useUnansweredQuery,
} from '../api';
import { LinkToPairDialog } from './LinkToPairDialog';
import { type QueueRights, UnansweredItem } from './UnansweredItem';

type Props = { botId: number; botName: string; onAnswer: (group: UnansweredGroup) => void };

const PAGE_SIZES = [10, 25, 50] as const;

/** What was just dismissed, to bring back with "Undo". */
type Dismissed = { ids: number[]; text: string };

/**
 * What visitors asked and the bot could not answer (or was not sure of), most asked first; rewordings of one question are
 * grouped. Answering a group once adds it as a Q&A pair, trained at once; what an agent replied to it in
 * a conversation they took over is offered as the answer to review. A question a pair already answers,
 * in other words, is added to that pair instead ("Same as an existing answer"). A dismissal, of one
 * question or of those selected, can be undone.
 */
export function UnansweredQuestions({ botId, botName, onAnswer }: Props) {
  const notify = useNotify();
  const ability = useAbility();
  const rights: QueueRights = {
    answer: ability.can('create', BOTS_SUBJECT),
    change: ability.can('write', BOTS_SUBJECT),
    readInbox: ability.can('read', 'Inbox'),
  };
  const queue = useUnansweredQuery(botId, { pollingInterval: 30_000 });
  const [dismissOne, dismissOneState] = useDismissUnansweredMutation();
  const [dismissMany, dismissManyState] = useDismissManyUnansweredMutation();
  const [restore, restoreState] = useRestoreUnansweredMutation();
  const pairs = useQnasQuery(botId).data ?? [];
  const [linking, setLinking] = useState<UnansweredGroup | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [dismissed, setDismissed] = useState<Dismissed | null>(null);
  const paging = usePaging(PAGE_SIZES);
  const list = queue.data?.groups ?? [];
  const total = queue.data?.total ?? 0;
  const shown = list.slice(paging.page * paging.size, (paging.page + 1) * paging.size);
  const busy = dismissOneState.isLoading || dismissManyState.isLoading;

  // A page emptied by dismissals or answers shows the page before it.
  const { page, reset } = paging;
  useEffect(() => {
    if (page > 0 && page * paging.size >= list.length) reset();
  }, [page, paging.size, list.length, reset]);
  // Questions that left the queue (answered, dismissed, by anyone) are selected no more.
  useEffect(() => {
    setSelected((current) => {
      const open = new Set(list.map((group) => group.id));
      const kept = [...current].filter((id) => open.has(id));
      return kept.length === current.size ? current : new Set(kept);
    });
  }, [list]);

  const dismiss = async (ids: number[], text: string) => {
    try {
      if (ids.length === 1) await dismissOne({ id: ids[0]!, botId }).unwrap();
      else await dismissMany({ botId, body: { ids } }).unwrap();
      setSelected(new Set());
      setDismissed({ ids, text });
    } catch (error) {
      notify.error(serverDetail(error) ?? 'Failed to dismiss the question');
    }
  };
  const undo = async () => {
    if (!dismissed) return;
    try {
      const { message } = await restore({ botId, body: { ids: dismissed.ids } }).unwrap();
      notify.success(message);
      setDismissed(null);
    } catch (error) {
      notify.error(serverDetail(error) ?? 'Failed to bring the question back');
    }
  };
  const select = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allShown = shown.length > 0 && shown.every((group) => selected.has(group.id));

  return (
    <Box component="section" aria-label={`Unanswered questions of ${botName}`} sx={{ mb: 3 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Unanswered questions{total > 0 ? ` (${total})` : ''}
      </Typography>
      {total > list.length ? (
        <Typography variant="body2" color="text.secondary">
          The {list.length} most asked of {total} are listed; answer or dismiss some to see the others.
        </Typography>
      ) : null}
      {queue.isError ? (
        <Typography color="error">
          {serverDetail(queue.error) ?? 'Failed to fetch unanswered questions'}
        </Typography>
      ) : null}
      {dismissed ? (
        <Alert
          severity="info"
          sx={{ my: 1 }}
          onClose={() => setDismissed(null)}
          action={
            <Button color="inherit" size="small" disabled={restoreState.isLoading} onClick={undo}>
              Undo
            </Button>
          }
        >
          {dismissed.text}
        </Alert>
      ) : null}
      {queue.isSuccess && list.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No unanswered questions. What visitors ask and the bot cannot answer, is not sure of, or answers in
          a way they rate down, appears here.
        </Typography>
      ) : null}
      {rights.change && list.length > 1 ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mt: 1 }}>
          <FormControlLabel
            label="Select all on this page"
            control={
              <Checkbox
                size="small"
                checked={allShown}
                indeterminate={!allShown && shown.some((group) => selected.has(group.id))}
                onChange={(event) =>
                  setSelected((current) => {
                    const next = new Set(current);
                    for (const group of shown)
                      if (event.target.checked) next.add(group.id);
                      else next.delete(group.id);
                    return next;
                  })
                }
              />
            }
          />
          <Button
            size="small"
            color="inherit"
            variant="outlined"
            disabled={selected.size === 0 || busy}
            onClick={() =>
              dismiss(
                [...selected],
                `${selected.size} ${selected.size === 1 ? 'question' : 'questions'} dismissed.`,
              )
            }
          >
            Dismiss selected{selected.size > 0 ? ` (${selected.size})` : ''}
          </Button>
        </Box>
      ) : null}
      <List dense disablePadding>
        {shown.map((group) => (
          <UnansweredItem
            key={group.id}
            group={group}
            rights={rights}
            hasPairs={pairs.length > 0}
            selectable={rights.change && list.length > 1}
            selected={selected.has(group.id)}
            busy={busy}
            onSelect={(on) => select(group.id, on)}
            onAnswer={() => onAnswer(group)}
            onLink={() => setLinking(group)}
            onDismiss={() => dismiss([group.id], `Dismissed “${group.question}”.`)}
          />
        ))}
      </List>
      {list.length > PAGE_SIZES[0] ? <TablePager {...paging.pagerProps(list.length)} /> : null}
      {linking ? (
        <LinkToPairDialog botId={botId} group={linking} pairs={pairs} onClose={() => setLinking(null)} />
      ) : null}
    </Box>
  );
}
