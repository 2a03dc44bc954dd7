import type { WidgetControls } from './components/App';

/** What the embedding page's script tag says: `<script src="https://HOST/widget.js" data-bot="UUID">`. */
export type WidgetConfig = {
  /** The origin that served widget.js: the API, the socket and the bot's images live there. */
  apiBase: string;
  uuid: string;
  /** `data-open="true"`: the chat opens as the page loads. */
  openAtStart: boolean;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Hosts images in bot answers may load from, besides the API host itself. */
export const EXTRA_IMAGE_HOSTS: readonly string[] = [];

/** The script tag running now (classic, deferred or async), else the first widget tag on the page. */
export function widgetScript(doc: Document = document): HTMLScriptElement | null {
  const current = doc.currentScript;
  if (current instanceof HTMLScriptElement && current.hasAttribute('data-bot')) return current;
  return doc.querySelector<HTMLScriptElement>('script[data-bot][src*="widget.js"]');
}

/** The widget's settings from its script tag; null (with the reason) when they are unusable. */
export function readConfig(
  script: Pick<HTMLScriptElement, 'src' | 'getAttribute'> | null,
  baseUri: string,
): WidgetConfig | string {
  if (!script) return 'the widget.js script tag was not found';
  const uuid = (script.getAttribute('data-bot') ?? '').trim();
  if (!UUID.test(uuid)) return 'data-bot must be the bot uuid';
  let apiBase: string;
  try {
    apiBase = new URL(script.src, baseUri).origin;
  } catch {
    return 'the script address is not a URL';
  }
  return { apiBase, uuid: uuid.toLowerCase(), openAtStart: script.getAttribute('data-open') === 'true' };
}

/** The hosts (`host[:port]`) images in answers may come from: the API host and the extra ones. */
export function imageHosts(apiBase: string): string[] {
  return [new URL(apiBase).host.toLowerCase(), ...EXTRA_IMAGE_HOSTS];
}

const MOUNTED = Symbol.for('parley.widgets');

/**
 * The bots mounted on this page, kept on the window: a site that pastes the snippet twice (a theme
 * and a plugin both adding it) runs two copies of this file, and the second must find the first's
 * widget rather than add another launcher. Either copy's ParleyWidget.open() then reaches it.
 */
export function mountedOn(win: object): Map<string, WidgetControls> {
  const slot = win as Record<symbol, Map<string, WidgetControls> | undefined>;
  const mounted = slot[MOUNTED] ?? new Map<string, WidgetControls>();
  slot[MOUNTED] = mounted;
  return mounted;
}
