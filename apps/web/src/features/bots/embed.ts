/** The script tag a website pastes to show the chat widget. */
export function embedSnippet(origin: string, uuid: string): string {
  return `<script src="${origin}/widget.js" data-bot="${uuid}" defer></script>`;
}

/** The bot's chat as a page of its own. */
export function directLink(origin: string, uuid: string): string {
  return `${origin}/chat/${uuid}`;
}

/**
 * What a site with a strict Content-Security-Policy must allow for the widget (apps/widget/README.md):
 * the script, its API calls and chat socket, and the bot's pictures. No 'unsafe-inline' is needed.
 */
export function cspDirectives(origin: string): string {
  const socket = origin.replace(/^http/, 'ws');
  return `script-src ${origin}; connect-src ${origin} ${socket}; img-src ${origin}`;
}
