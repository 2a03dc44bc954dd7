// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Composer } from './Composer';

const box = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;

function type(text: string) {
  fireEvent.change(box(), { target: { value: text } });
  fireEvent.keyDown(box(), { key: 'Enter' });
}

/** A send the test settles: resolves with what the caller says. */
function pendingSend() {
  const sent: string[] = [];
  let settle: (went: boolean) => void = () => undefined;
  const onSend = (text: string) => {
    sent.push(text);
    return new Promise<boolean>((resolve) => {
      settle = resolve;
    });
  };
  return { sent, onSend, settle: (went: boolean) => act(async () => settle(went)) };
}

afterEach(cleanup);

describe('Composer', () => {
  it('empties at once, and gives the text back when the send did not go', async () => {
    const send = pendingSend();
    render(<Composer onSend={send.onSend} disabled={false} />);
    type('  Your order left this morning.  ');
    expect(send.sent).toEqual(['Your order left this morning.']);
    expect(box().value).toBe('');
    await send.settle(false);
    expect(box().value).toBe('Your order left this morning.');
  });

  it('keeps what was typed meanwhile, and stays empty after a send that went', async () => {
    const send = pendingSend();
    render(<Composer onSend={send.onSend} disabled={false} />);
    type('First reply');
    fireEvent.change(box(), { target: { value: 'Second thought' } });
    await send.settle(false);
    expect(box().value).toBe('Second thought');

    fireEvent.keyDown(box(), { key: 'Enter' });
    await send.settle(true);
    expect(box().value).toBe('');
  });
});
