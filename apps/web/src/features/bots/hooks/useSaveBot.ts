import { type Bot, type BotInput, MESSAGES } from '@parley/contracts';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useUpdateBotMutation } from '../api';
import { updateBotFailure } from '../failure';

/** PUT of the fields one tab owns; 'Bot updated successfully', or the server's detail. */
export function useSaveBot(botId: number) {
  const notify = useNotify();
  const [update, state] = useUpdateBotMutation();
  const save = async (input: Partial<BotInput>, image?: Blob | null): Promise<Bot | null> => {
    const result = await update({ botId, input, image });
    if ('error' in result) {
      notify.error(updateBotFailure(result.error));
      return null;
    }
    notify.success(MESSAGES.bots.updated);
    return result.data;
  };
  return { save, busy: state.isLoading };
}
