import type { NoticeKind } from '@parley/chat-client';

/** A frame shown inline in the chat (console.md section 8 Frames in chat). */
export type ChatFrame = { id: number; kind: 'error' | NoticeKind; message: string };

/** Error red, warning orange, confirmation and help-desk control green. */
export function frameSeverity(kind: ChatFrame['kind']): 'error' | 'warning' | 'success' {
  if (kind === 'error') return 'error';
  if (kind === 'warning') return 'warning';
  return 'success';
}

let nextFrameId = 1;
export function makeFrame(kind: ChatFrame['kind'], message: string): ChatFrame {
  return { id: nextFrameId++, kind, message };
}
