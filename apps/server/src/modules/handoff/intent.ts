/**
 * Whether a visitor's words ask for a person rather than ask a question: "Can I talk to a human?",
 * "human", "live agent", "speak to someone from your team", "operator please", and the same in
 * every other language Parley speaks to visitors in ("quiero hablar con una persona", "Kann ich mit
 * einem Mitarbeiter sprechen?", "можно поговорить с оператором?", "bir temsilciyle görüşmek
 * istiyorum"). A bot with a language model is also given a tool to ask for one.
 */
const ALONE =
  /^\s*(a\s+)?(human|person|agent|live agent|real person|operator|representative|customer service|support agent)(\s+please)?\s*[.!?]*\s*$/i;
const ASKING =
  /\b(talk|speak|chat|connect|transfer|put)\b[^.?!]{0,30}\b(human|person|agent|someone|somebody|representative|operator|staff|team member|real person|people)\b/i;
const WANT =
  /\b(want|need|get|give)\b[^.?!]{0,20}\b(human|real person|live agent|representative|operator)\b/i;

/** Words of talking, and of a person to talk to, in the other languages (either order: German and Dutch put the verb last). */
const TALK =
  '(?:hablar|hable|habla|chatear|comunicarme|parler|discuter|sprechen|reden|chatten|parlare|parlo|parla|parli|falar|fale|conversar|praten|spreken|' +
  // Danish, Swedish, Norwegian (imperatives too: "Snakk med en person"; Danish "Tal med" is DANISH_TALK's);
  // Finnish, Russian, Hungarian and Turkish verbs carry endings.
  'tale|snakke|snakk|snak|chatte|prata|tala|snacka|chatta|prate|puhu\\p{L}*|jutel\\p{L}*|keskustel\\p{L}*|' +
  'поговорить|говорить|связаться|пообщаться|соедини\\p{L}*|переключи\\p{L}*|besz[ée]l\\p{L}*|konu[şs]\\p{L}*|g[öo]r[üu][şs]\\p{L}*)';
const SOMEONE =
  "(?:persona|humano|humana|agente|operador[a]?|asesor[a]?|empleado|alguien|personne|humain|humaine|conseill[eè]re?|opérat(?:eur|rice)|quelqu['’]un|mensch(?:en)?|mitarbeiter(?:in)?|berater(?:in)?|jemande?m?|person|umano|operatore|qualcuno|addett[oa]|pessoa|atendente|algu[ée]m|medewerker|iemand|mens|persoon|" +
  'menneske\\p{L}*|medarbejder\\p{L}*|nogen|m[äa]nniska\\p{L}*|medarbetare\\p{L}*|n[åa]gon|medarbeider\\p{L}*|noen|ansatt\\p{L}*|' +
  'ihmi\\p{L}*|asiakaspalvelij\\p{L}*|henkil[öo]\\p{L}*|человек\\p{L}*|оператор\\p{L}*|сотрудник\\p{L}*|менеджер\\p{L}*|консультант\\p{L}*|' +
  'ember\\p{L}*|[üu]gyint[ée]z\\p{L}*|munkat[áa]rs\\p{L}*|oper[áa]tor\\p{L}*|valaki\\p{L}*|insan\\p{L}*|temsilci\\p{L}*|yetkili\\p{L}*|operat[öo]r\\p{L}*)';
const FOREIGN_ASKING = new RegExp(
  `(?<![\\p{L}])${TALK}(?![\\p{L}])[^.?!]{0,30}(?<![\\p{L}])${SOMEONE}(?![\\p{L}])|(?<![\\p{L}])${SOMEONE}(?![\\p{L}])[^.?!]{0,30}(?<![\\p{L}])${TALK}(?![\\p{L}])`,
  'iu',
);
const FOREIGN_ALONE =
  /^\s*(?:una?\s+|ein(?:en)?\s+|een\s+|en\s+|et\s+|живой\s+)?(?:persona|humano|operador|operatore|humain|mensch|mitarbeiter|medewerker|atendente|pessoa|menneske|m[äa]nniska|medarbetare|ihminen|asiakaspalvelija|человек|оператор|сотрудник|[üu]gyint[ée]z[őo]|oper[áa]tor|temsilci|m[üu][şs]teri temsilcisi|operat[öo]r)(?:,?\s+(?:por favor|s[’']il vous pla[iî]t|bitte|per favore|alstublieft|tak|tack|takk|kiitos|пожалуйста|k[ée]rem|l[üu]tfen))?\s*[.!?]*\s*$/iu;

/** Danish "Tal med en person" (the button's words), said whole: "tal" alone is Spanish "qué tal", or a number. */
const DANISH_TALK =
  /^\s*tal\s+med\s+(?:en\s+)?(?:person|medarbejder\p{L}*|nogen|menneske\p{L}*)\s*[.!]*\s*$/iu;

export function asksForHuman(text: string): boolean {
  return (
    ALONE.test(text) ||
    DANISH_TALK.test(text) ||
    ASKING.test(text) ||
    WANT.test(text) ||
    FOREIGN_ASKING.test(text) ||
    FOREIGN_ALONE.test(text)
  );
}
