/*
 * Parley chat widget loader. Paste on a website:
 *   <script src="https://YOUR-PARLEY-HOST/widget.js" data-bot="BOT-UUID" defer></script>
 * Adds a round launcher button (bottom right) that opens the bot's chat in an iframe served by the
 * same host as this script. No dependencies; the only global is window.ParleyWidget.
 */
(() => {
  if (window.ParleyWidget) return;
  const script = document.currentScript || document.querySelector('script[src*="widget.js"][data-bot]');
  if (!script) return;
  const bot = script.getAttribute('data-bot') || '';
  if (!/^[0-9a-f-]{36}$/i.test(bot)) {
    console.warn('Parley widget: data-bot must be the bot uuid');
    return;
  }
  const origin = new URL(script.src, document.baseURI).origin;
  const colour = /^#[0-9a-f]{6}$/i.test(script.getAttribute('data-color') || '')
    ? script.getAttribute('data-color')
    : '#1f2937';
  const PREFIX = 'parley-widget';
  const chatIcon =
    '<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" fill="currentColor"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z"/></svg>';
  const closeIcon =
    '<svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" fill="currentColor"><path d="M18.3 5.7 12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7 4.3 4.3l6.3 6.3 6.3-6.3z"/></svg>';

  let frame = null;
  let open = false;

  const button = document.createElement('button');
  button.type = 'button';
  button.id = `${PREFIX}-launcher`;
  button.setAttribute('aria-label', 'Open chat');
  button.setAttribute('aria-expanded', 'false');
  button.innerHTML = chatIcon;
  Object.assign(button.style, {
    position: 'fixed',
    right: '20px',
    bottom: '20px',
    width: '56px',
    height: '56px',
    borderRadius: '50%',
    border: 'none',
    padding: '0',
    margin: '0',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    background: colour,
    color: '#ffffff',
    cursor: 'pointer',
    boxShadow: '0 4px 14px rgba(0,0,0,0.25)',
    zIndex: '2147483000',
  });

  function makeFrame() {
    const iframe = document.createElement('iframe');
    iframe.id = `${PREFIX}-frame`;
    iframe.title = 'Chat with us';
    iframe.src = `${origin}/widget/${encodeURIComponent(bot)}`;
    iframe.setAttribute(
      'sandbox',
      'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox',
    );
    iframe.setAttribute('allow', 'clipboard-write');
    Object.assign(iframe.style, {
      position: 'fixed',
      right: '20px',
      bottom: '88px',
      width: '380px',
      height: '600px',
      maxWidth: 'calc(100vw - 40px)',
      maxHeight: 'calc(100vh - 108px)',
      border: '1px solid rgba(0,0,0,0.12)',
      borderRadius: '12px',
      boxShadow: '0 8px 30px rgba(0,0,0,0.25)',
      background: '#ffffff',
      zIndex: '2147483000',
      display: 'none',
    });
    document.body.appendChild(iframe);
    return iframe;
  }

  function setOpen(next) {
    open = next;
    if (open && !frame) frame = makeFrame();
    if (frame) frame.style.display = open ? 'block' : 'none';
    button.innerHTML = open ? closeIcon : chatIcon;
    button.setAttribute('aria-label', open ? 'Close chat' : 'Open chat');
    button.setAttribute('aria-expanded', String(open));
  }

  button.addEventListener('click', () => setOpen(!open));

  function mount() {
    document.body.appendChild(button);
  }
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);

  window.ParleyWidget = {
    open: () => setOpen(true),
    close: () => setOpen(false),
    toggle: () => setOpen(!open),
  };
})();
