import type { Language } from '../knowledge/languages.js';
import type { SmallTalk } from './small-talk.js';

type Kind = Extract<SmallTalk, 'greeting' | 'thanks' | 'goodbye' | 'acknowledgement' | 'declined'>;

/**
 * Greetings, thanks, goodbyes and acknowledgements in the languages whose sites Parley reads best
 * (small-talk.ts has English's), as normalised text (lower case, letters and spaces, apostrophes
 * dropped), and the replies in the same language: a visitor who writes "hola" is answered "¡Hola!".
 */
export const FOREIGN_SMALL_TALK: Partial<
  Record<Language, { phrases: Partial<Record<Kind, string[]>>; replies: Record<Kind, string> }>
> = {
  spanish: {
    phrases: {
      greeting: [
        'hola',
        'buenas',
        'buenos dias',
        'buenos días',
        'buenas tardes',
        'buenas noches',
        'hola buenas',
        'saludos',
      ],
      thanks: ['gracias', 'muchas gracias', 'mil gracias', 'muy amable', 'te lo agradezco'],
      goodbye: ['adios', 'adiós', 'hasta luego', 'hasta pronto', 'chao', 'chau', 'nos vemos'],
      acknowledgement: ['vale', 'perfecto', 'genial', 'entendido', 'de acuerdo', 'estupendo', 'muy bien'],
    },
    replies: {
      greeting: '¡Hola! ¿En qué puedo ayudarte?',
      thanks: '¡De nada! ¿Puedo ayudarte en algo más?',
      goodbye: 'Gracias por escribirnos. ¡Hasta pronto!',
      acknowledgement: '¿Puedo ayudarte en algo más?',
      declined: 'De acuerdo. ¿Puedo ayudarte en algo más?',
    },
  },
  french: {
    phrases: {
      greeting: ['bonjour', 'bonsoir', 'salut', 'coucou', 'bonjour madame', 'bonjour monsieur'],
      thanks: ['merci', 'merci beaucoup', 'merci bien', 'merci infiniment', 'je vous remercie'],
      goodbye: [
        'au revoir',
        'bonne journée',
        'bonne journee',
        'bonne soirée',
        'bonne soiree',
        'à bientôt',
        'a bientot',
      ],
      acknowledgement: ['daccord', 'parfait', 'super', 'compris', 'entendu', 'très bien', 'tres bien'],
    },
    replies: {
      greeting: 'Bonjour ! Comment puis-je vous aider ?',
      thanks: 'Je vous en prie ! Puis-je vous aider pour autre chose ?',
      goodbye: 'Merci de nous avoir écrit. Au revoir !',
      acknowledgement: 'Puis-je vous aider pour autre chose ?',
      declined: "D'accord. Puis-je vous aider pour autre chose ?",
    },
  },
  german: {
    phrases: {
      greeting: [
        'hallo',
        'guten morgen',
        'guten tag',
        'guten abend',
        'moin',
        'moin moin',
        'servus',
        'grüß gott',
        'gruss gott',
        'grüezi',
      ],
      thanks: ['danke', 'danke schön', 'dankeschön', 'danke sehr', 'vielen dank', 'herzlichen dank'],
      goodbye: ['tschüss', 'tschüs', 'tschuess', 'auf wiedersehen', 'bis bald', 'schönen tag noch'],
      acknowledgement: ['alles klar', 'prima', 'verstanden', 'passt', 'in ordnung'],
    },
    replies: {
      greeting: 'Hallo! Wie kann ich Ihnen helfen?',
      thanks: 'Gern geschehen! Kann ich Ihnen noch bei etwas anderem helfen?',
      goodbye: 'Danke für Ihre Nachricht. Auf Wiedersehen!',
      acknowledgement: 'Kann ich Ihnen noch bei etwas anderem helfen?',
      declined: 'In Ordnung. Kann ich Ihnen noch bei etwas anderem helfen?',
    },
  },
  italian: {
    phrases: {
      greeting: ['ciao', 'salve', 'buongiorno', 'buonasera', 'buon pomeriggio'],
      thanks: ['grazie', 'grazie mille', 'grazie tante', 'molte grazie', 'gentilissimi'],
      goodbye: ['arrivederci', 'a presto', 'buona giornata', 'buona serata'],
      acknowledgement: ['va bene', 'perfetto', 'ottimo', 'capito', 'daccordo'],
    },
    replies: {
      greeting: 'Ciao! Come posso aiutarti?',
      thanks: "Prego! Posso aiutarti con qualcos'altro?",
      goodbye: 'Grazie per averci scritto. A presto!',
      acknowledgement: "Posso aiutarti con qualcos'altro?",
      declined: "Va bene. Posso aiutarti con qualcos'altro?",
    },
  },
  portuguese: {
    phrases: {
      greeting: ['olá', 'ola', 'oi', 'bom dia', 'boa tarde', 'boa noite'],
      thanks: ['obrigado', 'obrigada', 'muito obrigado', 'muito obrigada', 'obg'],
      goodbye: ['adeus', 'tchau', 'até logo', 'ate logo', 'até breve', 'ate breve'],
      acknowledgement: [
        'certo',
        'perfeito',
        'ótimo',
        'otimo',
        'entendi',
        'combinado',
        'está bem',
        'esta bem',
      ],
    },
    replies: {
      greeting: 'Olá! Como posso ajudar?',
      thanks: 'De nada! Posso ajudar em mais alguma coisa?',
      goodbye: 'Obrigado pela sua mensagem. Até breve!',
      acknowledgement: 'Posso ajudar em mais alguma coisa?',
      declined: 'Com certeza. Posso ajudar em mais alguma coisa?',
    },
  },
  dutch: {
    phrases: {
      greeting: ['hallo', 'hoi', 'goedemorgen', 'goedemiddag', 'goedenavond', 'dag'],
      thanks: ['dank je', 'dank u', 'dankjewel', 'dankuwel', 'dank je wel', 'dank u wel', 'bedankt'],
      goodbye: ['doei', 'tot ziens', 'fijne dag', 'tot later'],
      acknowledgement: ['oké', 'prima', 'top', 'duidelijk', 'helder', 'begrepen'],
    },
    replies: {
      greeting: 'Hallo! Waarmee kan ik u helpen?',
      thanks: 'Graag gedaan! Kan ik u nog ergens anders mee helpen?',
      goodbye: 'Bedankt voor uw bericht. Tot ziens!',
      acknowledgement: 'Kan ik u nog ergens anders mee helpen?',
      declined: 'Prima. Kan ik u nog ergens anders mee helpen?',
    },
  },
};
