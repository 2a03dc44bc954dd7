/**
 * Custom window events the shell listens to (spec section 4): any screen (the chat, later) can hide
 * the top bar and menu for full-screen chat, or ask the shell to re-measure its layout.
 */
export const SHELL_EVENTS = {
  chatFullScreen: 'parley:chat-fullscreen',
  layoutRefresh: 'parley:layout-refresh',
} as const;

export type ChatFullScreenDetail = { enabled: boolean };

export function setChatFullScreen(enabled: boolean): void {
  window.dispatchEvent(
    new CustomEvent<ChatFullScreenDetail>(SHELL_EVENTS.chatFullScreen, { detail: { enabled } }),
  );
}

export function refreshLayout(): void {
  window.dispatchEvent(new Event(SHELL_EVENTS.layoutRefresh));
}

export function isChatFullScreenEvent(event: Event): event is CustomEvent<ChatFullScreenDetail> {
  return (
    event instanceof CustomEvent && typeof (event.detail as { enabled?: unknown })?.enabled === 'boolean'
  );
}
