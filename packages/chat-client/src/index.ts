/**
 * The browser side of a Parley chat, with no framework in it: the console (React) and the website
 * widget (Preact) share these. Sanitised Markdown lives apart, at `@parley/chat-client/markdown`,
 * so a page that renders Markdown otherwise does not load its parser.
 */
export * from './chat-socket.js';
export * from './chunk-batcher.js';
export * from './citations.js';
export * from './colour.js';
export * from './handoff.js';
export * from './helpdesk-socket.js';
export * from './lead-form.js';
export * from './messages.js';
export * from './safe-url.js';
export * from './visitor-texts.js';
