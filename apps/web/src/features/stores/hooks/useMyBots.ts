import type { Bot } from '@parley/contracts';
import { useAppSelector } from '../../../app/store';
import { useBotsOfUserQuery } from '../../bots/api';

/** The bots the signed-in user works with (empty while loading). */
export function useMyBots(): Bot[] {
  const me = useAppSelector((state) => state.session.user);
  const bots = useBotsOfUserQuery(me?.id ?? 0, { skip: !me });
  return bots.data ?? [];
}
