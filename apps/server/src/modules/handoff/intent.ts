/**
 * Whether a visitor's words ask for a person rather than ask a question: "Can I talk to a human?",
 * "human", "live agent", "speak to someone from your team", "operator please". English phrases (the
 * bots' language today); a bot with a language model is also given a tool to ask for one.
 */
const ALONE =
  /^\s*(a\s+)?(human|person|agent|live agent|real person|operator|representative|customer service|support agent)(\s+please)?\s*[.!?]*\s*$/i;
const ASKING =
  /\b(talk|speak|chat|connect|transfer|put)\b[^.?!]{0,30}\b(human|person|agent|someone|somebody|representative|operator|staff|team member|real person|people)\b/i;
const WANT =
  /\b(want|need|get|give)\b[^.?!]{0,20}\b(human|real person|live agent|representative|operator)\b/i;

export function asksForHuman(text: string): boolean {
  return ALONE.test(text) || ASKING.test(text) || WANT.test(text);
}
