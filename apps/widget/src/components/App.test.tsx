// @vitest-environment jsdom
import { type PublicBot, WIDGET_TEXTS } from '@parley/contracts';
import { type ComponentChild, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionState } from '../session';
import { TextsContext, textsOf } from '../texts';
import { App } from './App';
import { Panel } from './Panel';

const bot: PublicBot = {
  bot_id: 5,
  uuid: 'b0b0b0b0-0000-4000-8000-000000000001',
  bot_name: 'Ada',
  description: null,
  profile_image: null,
  brand_color: '#2563eb',
  welcome_message: 'Hola',
  suggestion_questions: [],
  lead_form_config: null,
  human_button: 'always',
  language: 'spanish',
  // The server sends the words of the bot's language; the widget builds in English only.
  texts: WIDGET_TEXTS.spanish,
  booking: null,
  show_branding: true,
};

const connected: SessionState = {
  status: 'open',
  conversationId: null,
  messages: [],
  draft: null,
  thinking: false,
  pending: null,
  frames: [],
  agentsOnline: true,
  blocked: null,
  gaveUp: false,
};

const noop = () => undefined;
const panelProps = {
  apiBase: 'https://parley.example',
  bot,
  state: connected,
  open: true,
  markdown: { imageHosts: [], baseUrl: 'https://parley.example' },
  inputRef: { current: null },
  lead: 'form' as const,
  leadSentAfter: null,
  onSend: () => true,
  onLead: async () => null,
  onLeadDismiss: noop,
  onContact: async () => null,
  onNewChat: noop,
  onClose: noop,
  onRequestHuman: noop,
};

let container: HTMLElement;
function mount(node: ComponentChild) {
  container = document.createElement('div');
  document.body.append(container);
  act(() => render(node, container));
  return container;
}

afterEach(() => {
  act(() => render(null, container));
  container.remove();
  localStorage.clear();
});

describe("the widget in the bot's language", () => {
  it('speaks Spanish for a Spanish bot, and says so in its lang', () => {
    const root = mount(
      <App
        config={{ apiBase: 'https://parley.example', uuid: bot.uuid, openAtStart: false }}
        bot={bot}
        controls={{ setOpen: null }}
      />,
    );
    expect(root.querySelector('.root')?.getAttribute('lang')).toBe('es');
    expect(root.querySelector('.launcher')?.getAttribute('aria-label')).toBe('Abrir el chat');
    expect(root.querySelector('textarea')?.getAttribute('placeholder')).toBe('Escribe tu mensaje…');
    expect(root.querySelector('[role="dialog"]')?.getAttribute('aria-label')).toBe('Chat con Ada');
    expect(root.querySelector('.branding')?.textContent).toBe('Con la tecnología de Parley');
  });

  it('offers a person in Spanish', () => {
    const root = mount(
      <TextsContext.Provider value={textsOf(bot)}>
        <Panel {...panelProps} />
      </TextsContext.Provider>,
    );
    expect(root.querySelector('.person button')?.textContent).toBe('Hablar con una persona');
    expect(root.querySelector('.human')?.textContent).toBe('Hay una persona disponible');
    expect(root.querySelector('[data-testid="connection-status"]')?.textContent).toBe('En línea');
  });

  it('speaks English until given a language', () => {
    const root = mount(<Panel {...panelProps} />);
    expect(root.querySelector('textarea')?.getAttribute('placeholder')).toBe('Type your message…');
    expect(root.querySelector('.person button')?.textContent).toBe('Talk to a person');
  });
});
