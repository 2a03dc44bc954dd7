import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { BOTS_SUBJECT, type Bot } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { PagePreload } from '../../../app/preload';
import { useAppSelector } from '../../../app/store';
import { FRESH_ON_VISIT_S } from '../../../shared/api/base-api';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PageHeader } from '../../../shared/components/PageHeader';
import { llmApi } from '../../llm/api';
import { useAbility } from '../../permissions/hooks/useAbility';
import { botsApi, useBotsOfUserQuery } from '../api';
import { BotCard } from '../components/BotCard';
import { BotsEmptyState } from '../components/BotsEmptyState';
import { MessageUsage } from '../components/MessageUsage';
import { createdBotListLoaded, useCreatedBot } from '../created-bot';
import { useCompanyModels } from '../hooks/useCompanyModels';
import { useDeleteBot } from '../hooks/useDeleteBot';
import { modelLabel } from '../model-label';

/** The bots, their models and the month's messages start with the route. */
export const preload: PagePreload = ({ dispatch, user }) => {
  dispatch(botsApi.util.prefetch('botsOfUser', user.id, {}));
  dispatch(botsApi.util.prefetch('messageLimit', user.tenant_id, {}));
  dispatch(llmApi.util.prefetch('companyLlms', undefined, {}));
};

/** /bot, Manage Bots: the user's bots with their model and knowledge, and the way to create more. */
export function BotsPage() {
  const me = useAppSelector((state) => state.session.user);
  const ability = useAbility();
  const canCreate = ability.can('create', BOTS_SUBJECT);
  const canDelete = ability.can('write', BOTS_SUBJECT);
  const bots = useBotsOfUserQuery(me?.id ?? 0, { skip: !me, refetchOnMountOrArgChange: FRESH_ON_VISIT_S });
  const models = useCompanyModels();
  const createdId = useCreatedBot();
  const [deleting, setDeleting] = useState<Bot | null>(null);
  const { deleteBot, busy } = useDeleteBot();

  // Section 4: the wizard's created bot is forgotten once a reloaded list no longer holds it.
  useEffect(() => {
    if (bots.data && !bots.isFetching) createdBotListLoaded(bots.data.map((bot) => bot.bot_id));
  }, [bots.data, bots.isFetching]);

  const confirmDelete = async () => {
    if (!deleting) return;
    await deleteBot(deleting.bot_id);
    setDeleting(null);
  };

  return (
    <>
      <PageHeader
        title="Manage Bots"
        subtitle="Create bots, train them on your knowledge and choose the model that answers."
        actions={
          <>
            <Button component={Link} to="/bot/knowledge/files">
              Knowledge
            </Button>
            <Button component={Link} to="/bot/llm-settings">
              LLM settings
            </Button>
            {canCreate ? (
              <Button variant="contained" component={Link} to="/bot/new">
                Create bot
              </Button>
            ) : null}
          </>
        }
      />
      {me ? <MessageUsage tenantId={me.tenant_id} /> : null}
      {bots.isLoading ? <CircularProgress aria-label="Loading bots" /> : null}
      {bots.isError ? <Alert severity="error">The bots could not be loaded.</Alert> : null}
      {bots.data && bots.data.length === 0 ? <BotsEmptyState canCreate={canCreate} /> : null}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
        }}
      >
        {bots.data?.map((bot) => (
          <BotCard
            key={bot.bot_id}
            bot={bot}
            model={modelLabel(bot.llm_model, models)}
            isNew={bot.bot_id === createdId}
            onDelete={canDelete ? () => setDeleting(bot) : undefined}
          />
        ))}
      </Box>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete bot"
        text={`Delete ${deleting?.bot_name ?? ''}? Its settings, appearance and embed code stop working. This cannot be undone.`}
        confirmLabel="Delete"
        busy={busy}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
