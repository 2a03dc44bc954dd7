/** Where the chat fills the screen (styles.ts has the same media query). */
export const PHONE = '(max-width:480px)';

export const onPhone = (win: Window = window): boolean => Boolean(win.matchMedia?.(PHONE).matches);

/** Sets an inline style on the page, important, and returns what puts the page's own value back. */
function override(element: HTMLElement, name: string, value: string): () => void {
  const was = element.style.getPropertyValue(name);
  const priority = element.style.getPropertyPriority(name);
  element.style.setProperty(name, value, 'important');
  return () => {
    if (was) element.style.setProperty(name, was, priority);
    else element.style.removeProperty(name);
  };
}

/**
 * While the chat fills a phone's screen: the page behind it does not scroll under the visitor's
 * finger, and the panel follows the visual viewport, which the on-screen keyboard shrinks (on iOS
 * and Chrome for Android it leaves the layout viewport, and so a fixed panel, as it was): the message
 * box stays above the keyboard. Returns what undoes both.
 */
export function fitToPhone(root: HTMLElement, win: Window = window): () => void {
  if (!onPhone(win)) return () => undefined;
  const { documentElement, body } = win.document;
  const restore = [override(documentElement, 'overflow', 'hidden'), override(body, 'overflow', 'hidden')];
  const viewport = win.visualViewport;
  const fit = () => {
    if (!viewport) return;
    root.style.setProperty('--pw-top', `${viewport.offsetTop}px`);
    root.style.setProperty('--pw-height', `${viewport.height}px`);
  };
  fit();
  viewport?.addEventListener('resize', fit);
  viewport?.addEventListener('scroll', fit);
  return () => {
    viewport?.removeEventListener('resize', fit);
    viewport?.removeEventListener('scroll', fit);
    root.style.removeProperty('--pw-top');
    root.style.removeProperty('--pw-height');
    for (const undo of restore) undo();
  };
}
