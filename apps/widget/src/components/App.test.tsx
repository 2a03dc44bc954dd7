// @vitest-environment jsdom
import { type ChatMessage, type PublicBot, WIDGET_TEXTS, WIDGET_TEXTS_ENGLISH } from '@parley/contracts';
import { type ComponentChild, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionState } from '../session';
import { TextsContext, textsOf } from '../texts';
import { App } from './App';
import { useUnread } from './arrivals';
import { LeadForm } from './LeadForm';
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

function message(seq: number, type: ChatMessage['message_type'], text: string): ChatMessage {
  return {
    id: seq,
    chat_id: seq,
    conversation_id: 42,
    bot_id: 5,
    seq,
    message: text,
    message_type: type,
    message_source: 'bot',
    sender_id: null,
    recipient_id: null,
    user_id: null,
    timestamp: new Date(0).toISOString(),
    sources: [],
    qna_id: null,
    attachments: [],
    answer_mode: null,
    actions: [],
    handoff: null,
    usage: null,
  };
}

describe('what a screen reader hears', () => {
  const history = [
    message(1, 'bot', 'Welcome'),
    message(2, 'user', 'Do you ship?'),
    message(3, 'bot', 'Old answer'),
  ];
  const panelWith = (messages: ChatMessage[], draft: string | null = null) => (
    <Panel {...panelProps} state={{ ...connected, messages, draft }} />
  );
  const announced = () => container.querySelector('[data-testid="announcer"]')?.textContent?.trim();

  it('hears a new answer once, whole and without its Markdown; not a history as it loads', () => {
    mount(panelWith([]));
    act(() => render(panelWith(history), container));
    expect(announced()).toBe('');
    // The list is no live region: a streamed answer is not read piece by piece.
    expect(container.querySelector('[aria-live]')).toBeNull();
    expect(container.querySelector('[data-testid="announcer"]')?.getAttribute('role')).toBe('status');

    const asked = [...history, message(4, 'user', 'To Peru?')];
    act(() => render(panelWith(asked, '**Yes**, we'), container));
    expect(announced()).toBe('');
    act(() =>
      render(
        panelWith([...asked, message(5, 'bot', '**Yes**, we ship to [Peru](https://x.example).')]),
        container,
      ),
    );
    expect(announced()).toBe('Yes, we ship to Peru.');

    act(() =>
      render(
        panelWith([...asked, message(5, 'bot', 'x'), message(6, 'helpdesk', 'Hi, Ana here')]),
        container,
      ),
    );
    expect(announced()).toBe('Agent: Hi, Ana here');
  });

  it('hears the same words again when they come again', () => {
    mount(panelWith(history));
    act(() => render(panelWith([...history, message(4, 'bot', 'Sorry?')]), container));
    const first = container.querySelector('[data-testid="announcer"]')?.textContent;
    act(() =>
      render(panelWith([...history, message(4, 'bot', 'Sorry?'), message(5, 'bot', 'Sorry?')]), container),
    );
    expect(container.querySelector('[data-testid="announcer"]')?.textContent).not.toBe(first);
    expect(announced()).toBe('Sorry?');
  });
});

describe('direction', () => {
  const app = (texts: PublicBot['texts']) => (
    <App
      config={{ apiBase: 'https://parley.example', uuid: bot.uuid, openAtStart: false }}
      bot={{ ...bot, texts, welcome_message: 'مرحبا' }}
      controls={{ setOpen: null }}
    />
  );

  it("sets its own direction, so a right-to-left page does not turn the widget's words around", () => {
    document.documentElement.dir = 'rtl';
    try {
      const root = mount(app(WIDGET_TEXTS_ENGLISH));
      expect(root.querySelector('.root')?.getAttribute('dir')).toBe('ltr');
      // Messages and what the visitor types take the direction of their own words.
      expect(root.querySelector('[data-testid="welcome-message"] .md')?.getAttribute('dir')).toBe('auto');
      expect(root.querySelector('textarea')?.getAttribute('dir')).toBe('auto');
    } finally {
      document.documentElement.removeAttribute('dir');
    }
  });

  it('reads right to left in a right-to-left language', () => {
    const root = mount(app({ ...WIDGET_TEXTS_ENGLISH, lang: 'ar' }));
    expect(root.querySelector('.root')?.getAttribute('dir')).toBe('rtl');
  });
});

describe('on a phone', () => {
  const app = (openAtStart: boolean) => (
    <App
      config={{ apiBase: 'https://parley.example', uuid: bot.uuid, openAtStart }}
      bot={bot}
      controls={{ setOpen: null }}
    />
  );
  const asPhone = (phone: boolean) => {
    window.matchMedia = ((query: string) => ({ matches: phone && query === '(max-width:480px)' })) as never;
  };
  afterEach(() => {
    Reflect.deleteProperty(window, 'matchMedia');
  });

  it('does not open at start over the whole screen, as it does on a wide one', () => {
    asPhone(true);
    expect(mount(app(true)).querySelector('[role="dialog"]')?.hasAttribute('hidden')).toBe(true);
    act(() => render(null, container));
    asPhone(false);
    expect(mount(app(true)).querySelector('[role="dialog"]')?.hasAttribute('hidden')).toBe(false);
  });

  it('is modal there, filling the screen, and not on a wide one', () => {
    asPhone(true);
    expect(
      mount(<Panel {...panelProps} />)
        .querySelector('[role="dialog"]')
        ?.getAttribute('aria-modal'),
    ).toBe('true');
    act(() => render(null, container));
    asPhone(false);
    expect(
      mount(<Panel {...panelProps} />)
        .querySelector('[role="dialog"]')
        ?.getAttribute('aria-modal'),
    ).toBe('false');
  });
});

describe('two forms at once', () => {
  it("labels each form's own fields: the lead form and the contact form both ask a name", () => {
    const config = {
      enabled: true,
      title: 'Details',
      show_when: 'before_chat' as const,
      after_messages: 0,
      fields: [{ name: 'name', label: 'Name', type: 'text' as const, required: true }],
    };
    const root = mount(
      <>
        <LeadForm config={config} onSubmit={async () => null} onDismiss={noop} />
        <LeadForm config={{ ...config, title: 'Contact' }} onSubmit={async () => null} onDismiss={noop} />
      </>,
    );
    const forms = [...root.querySelectorAll('form')];
    expect(forms).toHaveLength(2);
    for (const form of forms) {
      const label = form.querySelector('label');
      expect(document.getElementById(label?.htmlFor ?? '')).toBe(form.querySelector('input'));
    }
  });
});

describe('unread', () => {
  function Launcher({ messages, open }: { messages: ChatMessage[]; open: boolean }) {
    return <output>{useUnread(messages, open)}</output>;
  }
  const history = [message(1, 'bot', 'Welcome'), message(2, 'user', 'A person, please')];
  const count = () => container.querySelector('output')?.textContent;

  it("counts what came while the chat was closed, not the history nor the visitor's own, until opened", () => {
    mount(<Launcher messages={[]} open={false} />);
    act(() => render(<Launcher messages={history} open={false} />, container));
    expect(count()).toBe('0');
    const joined = [...history, message(3, 'system', 'Ana joined')];
    act(() => render(<Launcher messages={joined} open={false} />, container));
    const replied = [...joined, message(4, 'helpdesk', 'Hello!')];
    act(() => render(<Launcher messages={replied} open={false} />, container));
    expect(count()).toBe('2');
    act(() => render(<Launcher messages={replied} open />, container));
    expect(count()).toBe('0');
    // Read while open: nothing to count.
    const more = [...replied, message(5, 'user', 'Thanks'), message(6, 'helpdesk', 'Bye')];
    act(() => render(<Launcher messages={more} open />, container));
    expect(count()).toBe('0');
  });
});

describe('scrolling', () => {
  /** The message list as a browser lays it out: 1000 px of messages in a 300 px window. */
  function laidOut(element: HTMLElement) {
    let top = 0;
    Object.defineProperties(element, {
      scrollHeight: { get: () => 1000 },
      clientHeight: { get: () => 300 },
      scrollTop: { get: () => top, set: (value: number) => (top = Math.min(value, 700)) },
    });
    return {
      top: () => top,
      scrollTo: (value: number) => {
        top = value;
        element.dispatchEvent(new Event('scroll'));
      },
    };
  }
  const history = [message(1, 'bot', 'Welcome'), message(2, 'user', 'Tell me everything')];
  const panelWith = (messages: ChatMessage[], draft: string | null, pending: string | null = null) => (
    <Panel {...panelProps} state={{ ...connected, messages, draft, pending }} />
  );

  it('follows a streaming answer, but leaves a visitor who scrolled up where they read', () => {
    mount(panelWith(history, null));
    const list = laidOut(container.querySelector('.body') as HTMLElement);
    act(() => render(panelWith(history, 'A long'), container));
    expect(list.top()).toBe(700);
    list.scrollTo(100);
    act(() => render(panelWith(history, 'A long answer, still coming'), container));
    expect(list.top()).toBe(100);
    // Their own next message takes them back to the end.
    act(() => render(panelWith(history, null, 'And then?'), container));
    expect(list.top()).toBe(700);
  });
});
