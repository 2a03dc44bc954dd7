/**
 * Whether a visitor's words ask for a person rather than ask a question: "Can I talk to a human?",
 * "human", "live agent", "speak to someone from your team", "operator please", and the same in
 * Spanish, French, German, Italian, Portuguese and Dutch ("quiero hablar con una persona", "Kann
 * ich mit einem Mitarbeiter sprechen?"). A bot with a language model is also given a tool to ask for one.
 */
const ALONE =
  /^\s*(a\s+)?(human|person|agent|live agent|real person|operator|representative|customer service|support agent)(\s+please)?\s*[.!?]*\s*$/i;
const ASKING =
  /\b(talk|speak|chat|connect|transfer|put)\b[^.?!]{0,30}\b(human|person|agent|someone|somebody|representative|operator|staff|team member|real person|people)\b/i;
const WANT =
  /\b(want|need|get|give)\b[^.?!]{0,20}\b(human|real person|live agent|representative|operator)\b/i;

/** Words of talking, and of a person to talk to, in the other languages (either order: German and Dutch put the verb last). */
const TALK =
  '(?:hablar|hable|habla|chatear|comunicarme|parler|discuter|sprechen|reden|chatten|parlare|parlo|falar|conversar|praten|spreken)';
const SOMEONE =
  "(?:persona|humano|humana|agente|operador[a]?|asesor[a]?|empleado|alguien|personne|humain|humaine|conseill[eè]re?|opérat(?:eur|rice)|quelqu['’]un|mensch(?:en)?|mitarbeiter(?:in)?|berater(?:in)?|jemande?m?|person|umano|operatore|qualcuno|addett[oa]|pessoa|atendente|algu[ée]m|medewerker|iemand|mens|persoon)";
const FOREIGN_ASKING = new RegExp(
  `(?<![\\p{L}])${TALK}(?![\\p{L}])[^.?!]{0,30}(?<![\\p{L}])${SOMEONE}(?![\\p{L}])|(?<![\\p{L}])${SOMEONE}(?![\\p{L}])[^.?!]{0,30}(?<![\\p{L}])${TALK}(?![\\p{L}])`,
  'iu',
);
const FOREIGN_ALONE =
  /^\s*(?:una?\s+|ein(?:en)?\s+|een\s+)?(?:persona|humano|operador|operatore|humain|mensch|mitarbeiter|medewerker|atendente|pessoa)(?:,?\s+(?:por favor|s[’']il vous pla[iî]t|bitte|per favore|alstublieft))?\s*[.!?]*\s*$/iu;

export function asksForHuman(text: string): boolean {
  return (
    ALONE.test(text) ||
    ASKING.test(text) ||
    WANT.test(text) ||
    FOREIGN_ASKING.test(text) ||
    FOREIGN_ALONE.test(text)
  );
}
