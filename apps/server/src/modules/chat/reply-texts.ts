import { type VisitorLanguage, WIDGET_TEXTS } from '@parley/contracts';
import { asVisitorLanguage, visitorLanguageOf } from '../bots/visitor-language.js';
import { type Language, questionLanguage } from '../knowledge/languages.js';

/** The bot's own lines when it does not know, and what it offers next (answer.service.ts abstain). */
export type ReplyTexts = {
  notFound: string;
  /** Before sentences quoted from sources that hold only part of the question (answer.service.ts unsure). */
  unsure: string;
  offerHuman: string;
  offerHumanLater: string;
  offerLead: string;
  offerRephrase: string;
  /** The title of the button that asks for a person (the widget's own, WIDGET_TEXTS). */
  person: string;
  /** Instead of an answer once the month's messages are used up. */
  limit: string;
  /** To a photo, voice note or file sent with no words on a channel (WhatsApp): the bot cannot read them. */
  mediaUnread: string;
};

const ENGLISH: ReplyTexts = {
  notFound: "Sorry, I don't know the answer to that.",
  unsure: "I'm not sure this answers your question, but this is what I found:",
  offerHuman: ' Would you like to talk to a person from our team?',
  offerHumanLater: ' You can ask to talk to a person from our team.',
  offerLead: ' Leave your details in the form and our team will get back to you.',
  offerRephrase: ' Please contact our team directly.',
  person: WIDGET_TEXTS.english.person,
  mediaUnread: 'I can’t open photos, voice messages or files here. Please type your question in a message.',
  limit:
    'This bot has answered all the messages its plan allows this month. Our team has been notified and will get back to you.',
};

/**
 * The same lines in the languages whose sites Parley reads best (foreign-words.ts has their
 * words), so that a visitor of a Spanish bakery is not told "Sorry, I don't know" in English.
 */
const TRANSLATED: Partial<Record<Language, ReplyTexts>> = {
  english: ENGLISH,
  spanish: {
    notFound: 'Lo siento, no sé la respuesta a eso.',
    unsure: 'No estoy seguro de que esto responda a tu pregunta, pero esto es lo que he encontrado:',
    offerHuman: ' ¿Quieres hablar con una persona de nuestro equipo?',
    offerHumanLater: ' Puedes pedir hablar con una persona de nuestro equipo.',
    offerLead: ' Deja tus datos en el formulario y nuestro equipo se pondrá en contacto contigo.',
    offerRephrase: ' Por favor, contacta directamente con nuestro equipo.',
    person: WIDGET_TEXTS.spanish.person,
    mediaUnread:
      'Aquí no puedo abrir fotos, mensajes de voz ni archivos. Escribe tu pregunta en un mensaje, por favor.',
    limit:
      'Este bot ya ha respondido todos los mensajes que permite su plan este mes. Hemos avisado a nuestro equipo y te responderá.',
  },
  french: {
    notFound: 'Désolé, je ne connais pas la réponse à cette question.',
    unsure: "Je ne suis pas sûr que cela réponde à votre question, mais voici ce que j'ai trouvé :",
    offerHuman: ' Voulez-vous parler à une personne de notre équipe ?',
    offerHumanLater: ' Vous pouvez demander à parler à une personne de notre équipe.',
    offerLead: ' Laissez vos coordonnées dans le formulaire et notre équipe vous recontactera.',
    offerRephrase: ' Veuillez contacter directement notre équipe.',
    person: WIDGET_TEXTS.french.person,
    mediaUnread:
      'Je ne peux pas ouvrir ici les photos, les messages vocaux ni les fichiers. Merci d’écrire votre question dans un message.',
    limit:
      'Ce bot a répondu à tous les messages que son forfait permet ce mois-ci. Notre équipe a été prévenue et vous répondra.',
  },
  german: {
    notFound: 'Das weiß ich leider nicht.',
    unsure: 'Ich bin nicht sicher, ob das Ihre Frage beantwortet, aber das habe ich gefunden:',
    offerHuman: ' Möchten Sie mit jemandem aus unserem Team sprechen?',
    offerHumanLater: ' Sie können darum bitten, mit jemandem aus unserem Team zu sprechen.',
    offerLead: ' Hinterlassen Sie Ihre Daten im Formular, dann meldet sich unser Team bei Ihnen.',
    offerRephrase: ' Bitte wenden Sie sich direkt an unser Team.',
    person: WIDGET_TEXTS.german.person,
    mediaUnread:
      'Fotos, Sprachnachrichten oder Dateien kann ich hier nicht öffnen. Bitte schreiben Sie Ihre Frage in eine Nachricht.',
    limit:
      'Dieser Bot hat alle Nachrichten beantwortet, die sein Tarif in diesem Monat erlaubt. Unser Team ist informiert und meldet sich bei Ihnen.',
  },
  italian: {
    notFound: 'Mi dispiace, non conosco la risposta.',
    unsure: 'Non sono sicuro che questo risponda alla tua domanda, ma ecco cosa ho trovato:',
    offerHuman: ' Vuoi parlare con una persona del nostro team?',
    offerHumanLater: ' Puoi chiedere di parlare con una persona del nostro team.',
    offerLead: ' Lascia i tuoi dati nel modulo e il nostro team ti ricontatterà.',
    offerRephrase: ' Contatta direttamente il nostro team.',
    person: WIDGET_TEXTS.italian.person,
    mediaUnread:
      'Qui non posso aprire foto, messaggi vocali o file. Scrivi la tua domanda in un messaggio, per favore.',
    limit:
      'Questo bot ha risposto a tutti i messaggi che il suo piano consente questo mese. Il nostro team è stato avvisato e ti risponderà.',
  },
  portuguese: {
    notFound: 'Lamento, não sei a resposta a essa pergunta.',
    unsure: 'Não tenho a certeza de que isto responde à sua pergunta, mas foi isto que encontrei:',
    offerHuman: ' Quer falar com uma pessoa da nossa equipa?',
    offerHumanLater: ' Pode pedir para falar com uma pessoa da nossa equipa.',
    offerLead: ' Deixe os seus dados no formulário e a nossa equipa entrará em contacto consigo.',
    offerRephrase: ' Por favor, contacte diretamente a nossa equipa.',
    person: WIDGET_TEXTS.portuguese.person,
    mediaUnread:
      'Não consigo abrir aqui fotografias, mensagens de voz nem ficheiros. Escreva a sua pergunta numa mensagem, por favor.',
    limit:
      'Este bot já respondeu a todas as mensagens que o seu plano permite este mês. A nossa equipa foi avisada e entrará em contacto consigo.',
  },
  dutch: {
    notFound: 'Sorry, daar weet ik het antwoord niet op.',
    unsure: 'Ik weet niet zeker of dit uw vraag beantwoordt, maar dit heb ik gevonden:',
    offerHuman: ' Wilt u met iemand van ons team praten?',
    offerHumanLater: ' U kunt vragen om met iemand van ons team te praten.',
    offerLead: ' Laat uw gegevens achter in het formulier, dan neemt ons team contact met u op.',
    offerRephrase: ' Neem rechtstreeks contact op met ons team.',
    person: WIDGET_TEXTS.dutch.person,
    mediaUnread:
      'Foto’s, spraakberichten of bestanden kan ik hier niet openen. Typ uw vraag alstublieft in een bericht.',
    limit:
      'Deze bot heeft alle berichten beantwoord die zijn abonnement deze maand toestaat. Ons team is op de hoogte gebracht en neemt contact met u op.',
  },
  russian: {
    notFound: 'К сожалению, я не знаю ответа на этот вопрос.',
    unsure: 'Возможно, это не совсем ответ на ваш вопрос, но вот что удалось найти:',
    offerHuman: ' Хотите поговорить с сотрудником нашей команды?',
    offerHumanLater: ' Вы можете попросить соединить вас с сотрудником нашей команды.',
    offerLead: ' Оставьте свои данные в форме, и наша команда свяжется с вами.',
    offerRephrase: ' Пожалуйста, свяжитесь с нашей командой напрямую.',
    person: WIDGET_TEXTS.russian.person,
    mediaUnread:
      'Здесь я не могу открыть фото, голосовые сообщения или файлы. Пожалуйста, напишите свой вопрос сообщением.',
    limit:
      'Этот бот уже ответил на все сообщения, которые позволяет его тариф в этом месяце. Наша команда уже в курсе и свяжется с вами.',
  },
  hungarian: {
    notFound: 'Sajnos erre nem tudom a választ.',
    unsure: 'Nem vagyok biztos benne, hogy ez megválaszolja a kérdését, de ezt találtam:',
    offerHuman: ' Szeretne csapatunk egyik munkatársával beszélni?',
    offerHumanLater: ' Kérheti, hogy csapatunk egyik munkatársával beszélhessen.',
    offerLead: ' Adja meg adatait az űrlapon, és csapatunk felveszi Önnel a kapcsolatot.',
    offerRephrase: ' Kérjük, forduljon közvetlenül csapatunkhoz.',
    person: WIDGET_TEXTS.hungarian.person,
    mediaUnread:
      'Itt nem tudok fotókat, hangüzeneteket vagy fájlokat megnyitni. Kérjük, írja meg kérdését üzenetben.',
    limit:
      'Ez a bot már megválaszolta az összes üzenetet, amelyet a csomagja ebben a hónapban lehetővé tesz. Csapatunkat értesítettük, és felvesszük Önnel a kapcsolatot.',
  },
  turkish: {
    notFound: 'Üzgünüm, bu sorunun yanıtını bilmiyorum.',
    unsure: 'Bunun sorunuzu yanıtladığından emin değilim, ancak bulduklarım şunlar:',
    offerHuman: ' Ekibimizden biriyle görüşmek ister misiniz?',
    offerHumanLater: ' Dilerseniz ekibimizden biriyle görüşmeyi talep edebilirsiniz.',
    offerLead: ' Formu doldurarak bilgilerinizi bırakın, ekibimiz size geri dönüş yapsın.',
    offerRephrase: ' Lütfen doğrudan ekibimizle iletişime geçin.',
    person: WIDGET_TEXTS.turkish.person,
    mediaUnread:
      'Burada fotoğrafları, sesli mesajları veya dosyaları açamıyorum. Lütfen sorunuzu bir mesaj olarak yazın.',
    limit:
      'Bu bot, planının bu ay izin verdiği tüm mesajları yanıtladı. Ekibimiz bilgilendirildi ve size geri dönüş yapacak.',
  },
  danish: {
    notFound: 'Beklager, det kender jeg ikke svaret på.',
    unsure: 'Jeg er ikke sikker på, at det her besvarer dit spørgsmål, men her er, hvad jeg fandt:',
    offerHuman: ' Vil du tale med en fra vores team?',
    offerHumanLater: ' Du kan bede om at tale med en fra vores team.',
    offerLead: ' Skriv dine oplysninger i formularen, så vender vores team tilbage til dig.',
    offerRephrase: ' Kontakt venligst vores team direkte.',
    person: WIDGET_TEXTS.danish.person,
    mediaUnread:
      'Jeg kan ikke åbne billeder, talebeskeder eller filer her. Skriv venligst dit spørgsmål i en besked.',
    limit:
      'Denne bot har besvaret alle de beskeder, som abonnementet tillader i denne måned. Vores team har fået besked og vender tilbage til dig.',
  },
  swedish: {
    notFound: 'Tyvärr vet jag inte svaret på det.',
    unsure: 'Jag är inte säker på att det här svarar på din fråga, men det här hittade jag:',
    offerHuman: ' Vill du prata med någon i vårt team?',
    offerHumanLater: ' Du kan be att få prata med någon i vårt team.',
    offerLead: ' Lämna dina uppgifter i formuläret, så hör vårt team av sig till dig.',
    offerRephrase: ' Kontakta gärna vårt team direkt.',
    person: WIDGET_TEXTS.swedish.person,
    mediaUnread:
      'Jag kan inte öppna bilder, röstmeddelanden eller filer här. Skriv gärna din fråga i ett meddelande.',
    limit:
      'Den här boten har svarat på alla meddelanden som abonnemanget tillåter den här månaden. Vårt team har fått besked och återkommer till dig.',
  },
  norwegian: {
    notFound: 'Beklager, jeg vet ikke svaret på det.',
    unsure: 'Jeg er ikke sikker på om dette svarer på spørsmålet ditt, men dette er det jeg fant:',
    offerHuman: ' Vil du snakke med noen fra teamet vårt?',
    offerHumanLater: ' Du kan be om å få snakke med noen fra teamet vårt.',
    offerLead: ' Legg igjen kontaktinformasjonen din i skjemaet, så tar teamet vårt kontakt med deg.',
    offerRephrase: ' Ta gjerne kontakt med teamet vårt direkte.',
    person: WIDGET_TEXTS.norwegian.person,
    mediaUnread:
      'Jeg kan ikke åpne bilder, talemeldinger eller filer her. Skriv spørsmålet ditt i en melding.',
    limit:
      'Denne boten har svart på alle meldingene abonnementet tillater denne måneden. Teamet vårt har fått beskjed og tar kontakt med deg.',
  },
  finnish: {
    notFound: 'Valitettavasti en tiedä vastausta tähän.',
    unsure: 'En ole varma, vastaako tämä kysymykseesi, mutta löysin tämän:',
    offerHuman: ' Haluaisitko keskustella jonkun tiimistämme kanssa?',
    offerHumanLater: ' Voit pyytää päästä keskustelemaan jonkun tiimistämme kanssa.',
    offerLead: ' Jätä yhteystietosi lomakkeelle, niin tiimimme ottaa sinuun yhteyttä.',
    offerRephrase: ' Ota yhteyttä suoraan tiimiimme.',
    person: WIDGET_TEXTS.finnish.person,
    mediaUnread: 'En voi avata täällä kuvia, ääniviestejä tai tiedostoja. Kirjoita kysymyksesi viestiin.',
    limit:
      'Tämä botti on jo vastannut kaikkiin viesteihin, jotka sen tilaus sallii tässä kuussa. Tiimimme on saanut tiedon asiasta ja ottaa sinuun yhteyttä.',
  },
};

export const TEXTS = ENGLISH;

/** The visitor language a message's words clearly tell ("¿tenéis envío a Francia?"), or null. */
export const toldLanguageOf = (message: string): VisitorLanguage | null =>
  asVisitorLanguage(questionLanguage(message));

/** The title of the "Talk to a person" button in a language, English's where Parley has none. */
export const personTitleIn = (language: Language): string => (TRANSLATED[language] ?? ENGLISH).person;

/**
 * The bot's lines in the visitor's language: the question's own when its words clearly tell it
 * (and Parley speaks it), else the bot's visitor language (its owner's choice, or its sources').
 */
export function replyTexts(
  question: string,
  sourceLanguages: readonly Language[] = ['english'],
  setting: VisitorLanguage | 'auto' = 'auto',
): ReplyTexts {
  const asked = questionLanguage(question);
  const texts = asked ? TRANSLATED[asked] : undefined;
  return texts ?? TRANSLATED[visitorLanguageOf(setting, sourceLanguages)] ?? ENGLISH;
}
