import type { Language } from './languages.js';
import { fromEveryLanguage, LANGUAGE_WORDS, orAlso, streetWords } from './words/language-words.js';

/**
 * The words of the languages other than English that evidence.ts keeps for English in STOP_WORDS
 * and INTENTS: what people type around a question in a chat, and the words that ask for a price, a
 * time, a place. They are each language's everyday equivalents of the English lists, written for
 * the language and not for a set of questions. PostgreSQL's stop words (stop-words.ts) are added to
 * these; words that may well be what is asked about ("llevar" in "para llevar", "día", "tarde") are
 * left out.
 */
export const FILLER_WORDS: Partial<Record<Language, string>> = {
  spanish:
    // greetings, thanks, chat words
    'hola buenas buenos saludos gracias favor porfa xfa vale ok oye pues bueno bien genial ' +
    // question words that PostgreSQL keeps
    'cuánto cuanto cuánta cuanta cuántos cuantos cuántas cuantas cuándo cuando cómo como dónde donde cuál cual cuáles cuales qué que quién quien ' +
    // asking verbs: can, want, would, have, do, go, know, need, there is
    'puedo puede podemos podéis podeis pueden podría podria podríamos podriamos poder ' +
    'quiero quiere queremos queréis quereis quieren quería queria quisiera querría querria querer gustaría gustaria ' +
    'tengo tienes tiene tenemos tenéis teneis tienen tener hay haber ' +
    'hago haces hace hacemos hacéis haceis hacen hacer ' +
    'voy vas va vamos vais van ir sé sabe sabéis sabeis saben saber necesito necesita necesitamos decir dime ' +
    'dais dan da dejáis dejais deja dejan ofrecéis ofreceis ofrecen vendéis vendeis venden aceptáis aceptais aceptan ' +
    // hedges and things
    'algo alguien algún algun alguna alguno algunos algunas cosa cosas info información informacion duda pregunta ' +
    'también tambien ya todavía todavia aún aun solo sólo realmente exactamente posible usted ustedes vosotros os',
  french:
    'bonjour bonsoir salut coucou merci svp stp plaît plait ok bon bien super ' +
    'combien quand comment où ou quel quelle quels quelles quoi qui que qu pourquoi ' +
    'peux peut pouvons pouvez peuvent pourrais pourrait pourrions pourriez pouvoir ' +
    'veux veut voulons voulez veulent voudrais voudrait voudrions voudriez vouloir aimerais aimerait aimerions ' +
    "ai as a avons avez ont avoir est sont suis es être etre y-a-t-il a-t-il est-ce qu'est-ce c'est cest ça ca il-y-a " +
    'fais fait faisons faites font faire vais va allons allez vont aller venir viens vient venons venez ' +
    'sais sait savons savez savoir faut dire proposez propose acceptez accepte ' +
    "quelque chose choses quelqu'un info infos information question possible vraiment déjà deja aussi encore juste " +
    'les des une un vers chez svp',
  german:
    'hallo hi hey moin servus grüß gruss gott guten tag morgen abend danke dankeschön bitte gerne ok okay ' +
    'was wie wo wann warum wieso weshalb wer wem wen welche welcher welches welchen welchem wie viel wieviel ' +
    'kann kannst können könnt koennen könnte könnten möchte möchten moechte will wollen wollt würde würden wuerde ' +
    'muss musst müssen muessen brauche brauch brauchen darf dürfen ' +
    "gibt gibts gibt's ist is sind bin bist seid habe hab hast hat haben habt " +
    'mache mach macht machen machst geht gehen gehe komme kommt kommen nehme nehmt nehmen ' +
    'bietet bieten biete verkauft verkaufen ' +
    'weiß weiss wissen sagen frage fragen info infos information ' +
    "eigentlich denn ja doch mal schon eben halt so sowas etwas irgendwas jemand ne nen 'n total überhaupt ueberhaupt auch noch nur wirklich " +
    'ihr euch euer eure sie ich mir mich',
  italian:
    'ciao salve buongiorno buonasera grazie prego favore ok bene ' +
    'quanto quanta quanti quante quando come dove quale quali cosa che chi perché perche ' +
    'posso può puo possiamo potete possono potrei potrebbe potremmo poter potere ' +
    'voglio vuole vogliamo volete vogliono vorrei vorremmo volere ' +
    "ho hai ha abbiamo avete hanno avere è e' sono siete c'è ce c'e ci " +
    'faccio fai fa facciamo fate fanno fare vado va andiamo andate vanno andare ' +
    'so sa sapete sapere dire serve servono bisogno offrite vendete accettate ' +
    'qualcosa qualcuno info informazioni informazione domanda anche già gia ancora solo proprio davvero possibile voi',
  portuguese:
    'olá ola oi obrigado obrigada favor ok bem ' +
    'quanto quanta quantos quantas quando como onde qual quais que quem porque porquê ' +
    'posso pode podemos podem poderia poder ' +
    'quero quer queremos querem queria gostaria querer ' +
    'tenho tem temos têm tens ter há ha é são sou somos ' +
    'faço faz fazemos fazem fazer vou vai vamos vão ir sei sabe sabem saber preciso precisa dizer ' +
    'oferecem vendem aceitam ' +
    'algo alguém alguem algum alguma coisa coisas info informação informacao pergunta também tambem já ja ainda só so mesmo realmente possível possivel vocês voces',
  dutch:
    'hallo hoi hey goedemorgen goedemiddag goedenavond dank bedankt dankjewel dankuwel alstublieft aub graag ok oké ' +
    'hoeveel hoe wat waar wanneer waarom welke welk wie ' +
    'kan kun kunt kunnen kon zou zouden mag mogen moet moeten wil wilt willen ' +
    'heb hebt heeft hebben ben bent is zijn doe doet doen ga gaat gaan kom komt komen ' +
    'weet weten zeggen bieden biedt verkopen accepteren ' +
    "iets iemand info informatie vraag vragen ook al nog even eigenlijk echt gewoon mogelijk mn m'n jullie u er",
  ...Object.fromEntries(Object.entries(LANGUAGE_WORDS).map(([language, words]) => [language, words.filler])),
};

type Patterns = { asks: RegExp; words: RegExp; answers: RegExp };

/**
 * Words and phrases as a pattern of whole words: JavaScript's \b knows only ASCII letters, so a
 * word is bounded by anything that is not a letter or digit ("qué" ends before "?").
 */
const anyOf = (...alternatives: string[]) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
const oneOf = (...alternatives: string[]) => new RegExp(`^(?:${alternatives.join('|')})$`, 'iu');

const PRICE_WORDS = [
  'precios?',
  'tarifas?',
  'coste',
  'costo',
  'cuesta',
  'cuestan',
  'vale',
  'valen',
  'caro',
  'barato',
  'cobráis',
  'cobrais',
  'cobran',
  'prix',
  'tarifs?',
  'coût',
  'cout',
  'coûte',
  'coute',
  'coûtent',
  'coutent',
  'cher',
  'kostet',
  'kosten',
  'preis',
  'preise',
  'gebühr',
  'gebühren',
  'gebuehr',
  'teuer',
  'costa',
  'costano',
  'prezzo',
  'prezzi',
  'tariffa',
  'tariffe',
  'custa',
  'custam',
  'preço',
  'preco',
  'preços',
  'precos',
  'valor',
  'kost',
  'prijs',
  'prijzen',
  'tarief',
  'tarieven',
  'duur',
];
const TIME_WORDS = [
  'horarios?',
  'abre',
  'abren',
  'abrís',
  'abris',
  'abierto',
  'abierta',
  'cierra',
  'cierran',
  'cerrado',
  'cerrada',
  'hora',
  'horas',
  'horaires?',
  'ouvert',
  'ouverte',
  'ouvre',
  'ouvrez',
  'ouverture',
  'ferme',
  'fermé',
  'fermée',
  'fermez',
  'fermeture',
  'heure',
  'heures',
  'uhrzeit',
  'öffnungszeiten',
  'oeffnungszeiten',
  'geöffnet',
  'offen',
  'öffnet',
  'schließt',
  'schliesst',
  'geschlossen',
  'uhr',
  'orari',
  'orario',
  'aperto',
  'aperta',
  'aperti',
  'apre',
  'aprite',
  'chiude',
  'chiudete',
  'chiuso',
  'chiusi',
  'ora',
  'ore',
  'horário',
  'horario',
  'horários',
  'abrem',
  'aberto',
  'aberta',
  'fecha',
  'fecham',
  'fechado',
  'fechada',
  'openingstijden',
  'open',
  'opent',
  'geopend',
  'sluit',
  'sluiten',
  'gesloten',
  'tijd',
  'tijden',
];
const DURATION_UNITS =
  'min(?:uto|utos|utes?|uten|uti)?|h|horas?|heures?|stunden?|std|ore|uur|d[ií]as|jours?|tage?n?|giorni|dagen|semanas?|semaines?|wochen?|settimane|weken|meses|mois|monate?|mesi|maanden|km|metros?|mètres?|meter|metri' +
  orAlso(fromEveryLanguage('durationUnits'));
const DAY_NAMES =
  'lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bados?|domingos?|lundis?|mardis?|mercredis?|jeudis?|vendredis?|samedis?|dimanches?|' +
  'montags?|dienstags?|mittwochs?|donnerstags?|freitags?|samstags?|sonntags?|luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabato|sabati|domenica|domeniche|' +
  'segunda(?:-feira)?s?|ter[çc]a(?:-feira)?s?|quarta(?:-feira)?s?|quinta(?:-feira)?s?|sexta(?:-feira)?s?|' +
  'maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag|maandags|zaterdags|zondags' +
  orAlso(fromEveryLanguage('dayNames'));

/** The months, as a date names them ("24 de diciembre", "1er mai", "24. Dezember", "3 maart"). */
const MONTH_NAMES =
  'enero|febrero|marzo|abril|mayo|junio|julio|agosto|se?ptiembre|octubre|noviembre|diciembre|' +
  'janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[ûu]t|septembre|octobre|novembre|d[ée]cembre|' +
  'januar|j[äa]nner|februar|m[äa]rz|maerz|april|juni|juli|august|september|oktober|november|dezember|' +
  'gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|' +
  'janeiro|fevereiro|mar[çc]o|maio|junho|julho|setembro|outubro|novembro|dezembro|' +
  'januari|februari|maart|mei|augustus|december' +
  orAlso(fromEveryLanguage('monthNames'));

/**
 * An address whose street word follows the name, glued ("Storgatan 5", "Mannerheimintie 3") or not
 * ("Kossuth Lajos utca 5", "Atatürk Cad. No: 12"), in the languages whose words are kept per language.
 */
const STREETS_AFTER = streetWords('suffix');
const STREET_AFTER_NAME =
  STREETS_AFTER.length > 0 ? `|\\p{L}+\\s?(?:${STREETS_AFTER.join('|')})\\.?\\s?(?:no\\.?:?\\s?)?\\d` : '';

/** Each intent's foreign asking words and the answers they want (evidence.ts INTENTS has English's). */
export const FOREIGN_INTENTS: Record<
  'price' | 'time' | 'duration' | 'place' | 'contact' | 'quantity' | 'days',
  Patterns
> = {
  price: {
    // As in English, paying asks for a price only when one must ("do I have to pay"), not "can I pay by card".
    asks: anyOf(
      'cu[áa]nto',
      'combien',
      'wie ?viel',
      'was kostet',
      'quanto',
      'hoeveel',
      '(?:hay|tengo|tenemos) que pagar',
      'faut(?:-il)? payer',
      'dois(?:-je)? payer',
      'muss (?:ich|man)(?: \\p{L}+){0,4} (?:be)?zahlen',
      'devo pagare',
      'bisogna pagare',
      '(?:tenho|temos) de pagar',
      'preciso pagar',
      'moet (?:ik|je)(?: \\p{L}+){0,4} betalen',
      ...PRICE_WORDS,
      ...fromEveryLanguage('priceAsks'),
    ),
    words: oneOf(...PRICE_WORDS, ...fromEveryLanguage('priceWords')),
    answers: anyOf(
      'gratis',
      'gratuito',
      'gratuita',
      'gratuit',
      'gratuite',
      'kostenlos',
      'umsonst',
      'grátis',
      'precios?',
      'prix',
      'preise?',
      'prezz[oi]',
      'preços?',
      'prijs',
      'tarif\\w*',
      '\\d+(?:[.,]\\d+)?\\s?(?:€|eur|euros?)',
      '€\\s?\\d',
      ...fromEveryLanguage('priceAnswers'),
    ),
  },
  time: {
    asks: anyOf(
      'a qu[ée] hora',
      'à quelle heure',
      'a quelle heure',
      'a che ora',
      'a que horas?',
      'hoe laat',
      'cu[áa]ndo',
      'quand',
      'wann',
      'quando',
      'wanneer',
      'bis wann',
      ...TIME_WORDS,
      ...fromEveryLanguage('timeAsks'),
    ),
    words: oneOf(...TIME_WORDS, ...fromEveryLanguage('timeWords')),
    answers: anyOf(
      `\\d{1,2}(?:º|°|er)?\\.?\\s+(?:de\\s+)?(?:${MONTH_NAMES})`,
      '\\d{1,2}(?:[:.]\\d{2})?\\s?(?:h|uhr|u)',
      '\\d{1,2}h\\d{2}',
      '\\d{1,2}[:.]\\d{2}',
      'cerrado',
      'cerramos',
      'fermé',
      'fermée',
      'fermeture',
      'geschlossen',
      'chiuso',
      'chiusura',
      'fechado',
      'gesloten',
      'abierto',
      'ouvert',
      'geöffnet',
      'aperto',
      'aberto',
      'geopend',
      ...fromEveryLanguage('timeAnswers'),
    ),
  },
  duration: {
    asks: anyOf(
      'cu[áa]nto (?:tiempo|tarda|dura)',
      'tarda',
      'dura',
      'combien de temps',
      'durée',
      'wie lange',
      'dauert?',
      'quanto (?:tempo|dura)',
      'durata',
      'quanto tempo',
      'demora',
      'duração',
      'hoe lang',
      'duurt',
      'lejos',
      'loin',
      'wie weit',
      'lontano',
      'longe',
      'hoe ver',
      ...fromEveryLanguage('durationAsks'),
    ),
    words: oneOf(
      'tarda',
      'dura',
      'durée',
      'dauer',
      'dauert',
      'durata',
      'demora',
      'duração',
      'duurt',
      ...fromEveryLanguage('durationWords'),
    ),
    answers: anyOf(
      `\\d+(?:[.,]\\d+)?(?:\\s?(?:-|–|a|à|bis|tot|till|til|до|ila|ile)\\s?\\d+)?\\s?(?:${DURATION_UNITS})`,
    ),
  },
  place: {
    asks: anyOf(
      'd[óo]nde',
      'direcci[óo]n',
      'ubicaci[óo]n',
      'c[óo]mo llegar',
      'où',
      'adresse',
      'situé',
      'situés',
      'accès',
      'wo',
      'anfahrt',
      'dove',
      'indirizzo',
      'come arrivare',
      'onde',
      'morada',
      'endereço',
      'como chegar',
      'waar',
      'adres',
      'route',
      ...fromEveryLanguage('placeAsks'),
    ),
    words: oneOf(
      'direcci[óo]n',
      'ubicaci[óo]n',
      'adresse',
      'situé',
      'accès',
      'anfahrt',
      'indirizzo',
      'morada',
      'endereço',
      'adres',
      'route',
      ...fromEveryLanguage('placeWords'),
    ),
    answers: new RegExp(
      `${anyOf('calle', 'c/', 'avenida', 'avda', 'plaza', 'paseo', 'rue', 'avenue', 'boulevard', 'via', 'viale', 'piazza', 'corso', 'rua', 'praça', 'largo', 'travessa', ...streetWords('prefix')).source}\\s+\\p{L}|\\p{L}+(?:straße|strasse|str\\.|platz|gasse|allee|straat|laan|plein|gracht|kade|singel)\\s?\\d${STREET_AFTER_NAME}|${anyOf('direcci[óo]n', 'adresse', 'indirizzo', 'morada', 'endereço', 'adres', 'anfahrt').source}`,
      'iu',
    ),
  },
  contact: {
    asks: anyOf(
      'tel[ée]fono',
      'llamar',
      'correo',
      'contact[oa]r?',
      'téléphone',
      'appeler',
      'joindre',
      'courriel',
      'telefon',
      'anrufen',
      'kontakt',
      'chiamare',
      'contattare',
      'contatto',
      'telefone',
      'ligar',
      'telefoon',
      'bellen',
      'mailen',
      'e-?mail',
      ...fromEveryLanguage('contactAsks'),
    ),
    words: oneOf(
      'tel[ée]fono',
      'llamar',
      'correo',
      'téléphone',
      'appeler',
      'courriel',
      'telefon',
      'anrufen',
      'kontakt',
      'chiamare',
      'contatto',
      'telefone',
      'ligar',
      'telefoon',
      'bellen',
      ...fromEveryLanguage('contactWords'),
    ),
    answers: /(\+?\d[\d ()-]{7,}\d)|([\w.+-]+@[\w-]+\.[\w.]+)/i,
  },
  quantity: {
    asks: anyOf(
      'cu[áa]nt[oa]s',
      'combien de',
      'wie viele',
      'quant[ie]',
      'quant[oa]s',
      'hoeveel',
      ...fromEveryLanguage('quantityAsks'),
    ),
    words: oneOf('cu[áa]nt[oa]s', 'quant[ie]', 'quant[oa]s', ...fromEveryLanguage('quantityWords')),
    answers: /\d+/,
  },
  days: {
    asks: anyOf(
      'qu[ée] d[íi]as',
      'quels jours',
      'welche[nm]? tage',
      'an welchen tagen',
      'quali giorni',
      'qu(?:e|ais) dias',
      'welke dagen',
      ...fromEveryLanguage('daysAsks'),
    ),
    words: oneOf(
      'd[íi]as',
      'jours',
      'tage',
      'tagen',
      'giorni',
      'dias',
      'dagen',
      ...fromEveryLanguage('daysWords'),
    ),
    answers: anyOf(
      DAY_NAMES,
      'todos los d[íi]as',
      'tous les jours',
      'täglich',
      'tutti i giorni',
      'todos os dias',
      'dagelijks',
      'elke dag',
      ...fromEveryLanguage('everyDay'),
    ),
  },
};

/**
 * Other languages' words that point back at the conversation, as REFERS_BACK (chat/answer.service.ts)
 * has English's: a message opening with "and", "also", "but", "what about" ("¿y los domingos?",
 * "et en novembre ?", "und privat?"), or naming what was said ("eso", "ça", "das").
 */
export const FOREIGN_REFERS_BACK = new RegExp(
  '^\\s*¿?\\s*(?:y|e|et|und|en|o|ou|oder|of|también|tambien|aussi|auch|anche|também|ook|pero|mais|aber|ma|mas|maar|' +
    'y qué hay de|qué tal|et pour|was ist mit|und wie ist es mit|e per|e quanto a|e o|e a|en voor|hoe zit het met' +
    orAlso(fromEveryLanguage('refersBackOpeners')) +
    ')(?![\\p{L}\\p{N}])' +
    '|(?<![\\p{L}\\p{N}])(?:eso|esto|ese|esa|ça|cela|celui-ci|celle-ci|das|dafür|dafuer|davon|dazu|quello|quella|questo|questa|isso|isto|esse|essa|dat|dit|daarvoor' +
    orAlso(fromEveryLanguage('refersBackPronouns')) +
    ')(?![\\p{L}\\p{N}])',
  'iu',
);
