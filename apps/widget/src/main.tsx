import { render } from 'preact';
import { fetchBot } from './api';
import { App, type WidgetControls } from './components/App';
import { mountedOn, readConfig, widgetScript } from './config';
import { STYLES } from './styles';

/**
 * Parley's website widget. A site includes
 *   <script src="https://PARLEY-HOST/widget.js" data-bot="BOT-UUID" defer></script>
 * and gets a chat launcher at the bottom right. Everything renders inside a shadow root on one
 * `<parley-widget>` element, so the site's CSS and the widget's cannot touch each other; the API,
 * the socket and images come from the script's own origin. The only global is `ParleyWidget`.
 */

const mounted = mountedOn(window);

function styleSheet(root: ShadowRoot): void {
  // Constructed sheets are not inline <style>, which a strict Content-Security-Policy may refuse.
  if (
    'adoptedStyleSheets' in root &&
    typeof CSSStyleSheet !== 'undefined' &&
    'replaceSync' in CSSStyleSheet.prototype
  ) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
    root.adoptedStyleSheets = [sheet];
    return;
  }
  const style = document.createElement('style');
  style.textContent = STYLES;
  root.append(style);
}

function whenBody(): Promise<HTMLElement> {
  if (document.body) return Promise.resolve(document.body);
  return new Promise((resolve) =>
    document.addEventListener('DOMContentLoaded', () => resolve(document.body), { once: true }),
  );
}

async function mount(): Promise<void> {
  const config = readConfig(widgetScript(), document.baseURI);
  if (typeof config === 'string') {
    console.warn(`Parley widget: ${config}`);
    return;
  }
  if (mounted.has(config.uuid)) return;
  const controls: WidgetControls = { setOpen: null };
  mounted.set(config.uuid, controls);
  let bot: Awaited<ReturnType<typeof fetchBot>>;
  try {
    bot = await fetchBot(config.apiBase, config.uuid);
  } catch (error) {
    mounted.delete(config.uuid);
    console.warn(
      `Parley widget: the bot could not be loaded (${error instanceof Error ? error.message : error})`,
    );
    return;
  }
  const host = document.createElement('parley-widget');
  host.setAttribute('data-bot', config.uuid);
  // A zero-size fixed box: the widget's own elements are fixed to the viewport inside it.
  for (const [name, value] of [
    ['all', 'initial'],
    ['position', 'fixed'],
    ['right', '0'],
    ['bottom', '0'],
    ['width', '0'],
    ['height', '0'],
    ['z-index', '2147483000'],
    ['display', 'block'],
  ] as const) {
    host.style.setProperty(name, value, 'important');
  }
  const root = host.attachShadow({ mode: 'open' });
  styleSheet(root);
  (await whenBody()).append(host);
  render(<App config={config} bot={bot} controls={controls} />, root);
}

function setAll(open: boolean | ((was: boolean) => boolean)): void {
  for (const controls of mounted.values()) controls.setOpen?.(open);
}

/** window.ParleyWidget.open() / close() / toggle(), for a site's own buttons. */
export const open = () => setAll(true);
export const close = () => setAll(false);
export const toggle = () => setAll((was) => !was);

// A failure must stay the widget's: the site's own scripts and page go on.
mount().catch((error) => console.warn('Parley widget: it could not start', error));
