import { WIDGET_TEXTS_ENGLISH, type WidgetTexts } from '@parley/contracts';
import { createContext, useContext } from 'react';

/**
 * The words the chat components show a visitor: English in the console (playground, inbox); on a
 * bot's public chat page, the language the bot speaks to its visitors in (`PublicBot.texts`), as the
 * website widget says them.
 */
export const ChatTexts = createContext<WidgetTexts>(WIDGET_TEXTS_ENGLISH);
export const useChatTexts = () => useContext(ChatTexts);
