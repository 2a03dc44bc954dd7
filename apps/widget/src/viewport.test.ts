// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { fitToPhone } from './viewport';

/** A window as a phone's (or a desktop's) browser shows it, with a visual viewport the keyboard shrinks. */
function browser(phone: boolean) {
  const viewport = Object.assign(new EventTarget(), { height: 640, offsetTop: 0 });
  const win = Object.create(window, {
    matchMedia: { value: (query: string) => ({ matches: phone && query.includes('max-width:480px') }) },
    visualViewport: { value: viewport },
    document: { value: document },
  }) as Window;
  const keyboard = (height: number, offsetTop = 0) => {
    Object.assign(viewport, { height, offsetTop });
    viewport.dispatchEvent(new Event('resize'));
  };
  return { win, keyboard };
}

const root = () => document.createElement('div');
const { documentElement: html, body } = document;

afterEach(() => {
  html.removeAttribute('style');
  body.removeAttribute('style');
});

describe('fitToPhone', () => {
  it('keeps the panel above the on-screen keyboard and the page still behind it, then undoes both', () => {
    const { win, keyboard } = browser(true);
    body.style.overflow = 'scroll';
    const element = root();
    const undo = fitToPhone(element, win);
    expect(element.style.getPropertyValue('--pw-height')).toBe('640px');
    expect(getComputedStyle(html).overflow).toBe('hidden');
    expect(body.style.overflow).toBe('hidden');

    keyboard(330, 40);
    expect(element.style.getPropertyValue('--pw-height')).toBe('330px');
    expect(element.style.getPropertyValue('--pw-top')).toBe('40px');

    undo();
    keyboard(640);
    expect(element.style.getPropertyValue('--pw-height')).toBe('');
    // The page's own styles come back as they were.
    expect(html.style.overflow).toBe('');
    expect(body.style.overflow).toBe('scroll');
  });

  it('leaves a wide screen alone: the panel floats there and the page scrolls', () => {
    const { win, keyboard } = browser(false);
    const element = root();
    fitToPhone(element, win);
    keyboard(300);
    expect(element.style.getPropertyValue('--pw-height')).toBe('');
    expect(html.style.overflow).toBe('');
  });
});
