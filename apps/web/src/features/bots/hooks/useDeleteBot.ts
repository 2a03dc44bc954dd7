import { MESSAGES, UI_TIMING } from '@parley/contracts';
import toast from 'react-hot-toast';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useDeleteBotMutation } from '../api';
import { deleteBotFailure } from '../failure';

/** Deletes a bot with the spec's texts: success, the 409 warning, or the server's detail. */
export function useDeleteBot() {
  const notify = useNotify();
  const [remove, state] = useDeleteBotMutation();
  const deleteBot = async (botId: number): Promise<boolean> => {
    const result = await remove(botId);
    if (!('error' in result)) {
      notify.success(MESSAGES.bots.deleted);
      return true;
    }
    const failure = deleteBotFailure(result.error);
    if (failure.level === 'warning') toast(failure.text, { icon: '⚠️', duration: UI_TIMING.toastMs });
    else notify.error(failure.text);
    return false;
  };
  return { deleteBot, busy: state.isLoading };
}
