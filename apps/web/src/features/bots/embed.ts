/** The script tag a website pastes to show the chat widget. */
export function embedSnippet(origin: string, uuid: string): string {
  return `<script src="${origin}/widget.js" data-bot="${uuid}" defer></script>`;
}

/** The bot's chat as a page of its own. */
export function directLink(origin: string, uuid: string): string {
  return `${origin}/chat/${uuid}`;
}
