import { HANDOFF_TEXTS, HELPDESK_TEXTS, type VisitorLanguage } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db/database.js';
import { bots } from '../bots/bots.schema.js';
import { sourceLanguagesOf, visitorLanguageOf } from '../bots/visitor-language.js';
import type { ConversationRow } from '../chat/chat.queries.js';

/** The notices a visitor reads as the hand-off moves (the agent reads them too, in the inbox). */
export type VisitorNotices = {
  requested: (position: number) => string;
  nobodyOnline: string;
  noAnswer: string;
  noAnswerContactLeft: string;
  contactLeft: (name: string, email: string) => string;
  nobodyOnlineNoForm: string;
  noAnswerNoForm: string;
  alreadyWaiting: string;
  alreadyWithAgent: string;
  closed: string;
  closedIdle: string;
  reopened: string;
  agentJoined: (name: string) => string;
  botBack: string;
  agentAway: string;
  /** The button that opens the contact form. */
  leaveContact: string;
};

const ENGLISH: VisitorNotices = {
  requested: HANDOFF_TEXTS.requested,
  nobodyOnline: HANDOFF_TEXTS.nobodyOnline,
  noAnswer: HANDOFF_TEXTS.noAnswer,
  noAnswerContactLeft: HANDOFF_TEXTS.noAnswerContactLeft,
  contactLeft: HANDOFF_TEXTS.contactLeft,
  nobodyOnlineNoForm: HANDOFF_TEXTS.nobodyOnlineNoForm,
  noAnswerNoForm: HANDOFF_TEXTS.noAnswerNoForm,
  alreadyWaiting: HANDOFF_TEXTS.alreadyWaiting,
  alreadyWithAgent: HANDOFF_TEXTS.alreadyWithAgent,
  closed: HANDOFF_TEXTS.closed,
  closedIdle: HANDOFF_TEXTS.closedIdle,
  reopened: HANDOFF_TEXTS.reopened,
  agentJoined: HELPDESK_TEXTS.agentJoined,
  botBack: HELPDESK_TEXTS.botBack,
  agentAway: HELPDESK_TEXTS.agentAway,
  leaveContact: HANDOFF_TEXTS.leaveContact,
};

/** The same notices in each language a bot speaks to visitors in (contracts VISITOR_LANGUAGES). */
export const VISITOR_NOTICES: Record<VisitorLanguage, VisitorNotices> = {
  english: ENGLISH,
  spanish: {
    requested: (n) =>
      `Has pedido hablar con una persona. Alguien de nuestro equipo se unirá enseguida; ${n <= 1 ? 'eres el siguiente.' : `tienes el número ${n} en la cola.`}`,
    nobodyOnline:
      'Ahora mismo no hay nadie de nuestro equipo conectado. Déjanos tu nombre, tu email y tu pregunta, y te responderemos lo antes posible.',
    noAnswer:
      'Lo sentimos, nadie de nuestro equipo ha podido unirse a tiempo. Déjanos tu nombre, tu email y tu pregunta, y te responderemos; mientras tanto, el bot vuelve a responder.',
    noAnswerContactLeft:
      'Lo sentimos, nadie de nuestro equipo ha podido unirse a tiempo. Tenemos tus datos y te responderemos; mientras tanto, el bot vuelve a responder.',
    contactLeft: (name, email) =>
      `Gracias, ${name}. Alguien de nuestro equipo escribirá a ${email} sobre tu pregunta lo antes posible.`,
    nobodyOnlineNoForm:
      'Ahora mismo no hay nadie de nuestro equipo conectado. Vuelve a escribirnos más tarde; mientras tanto, el bot puede ayudarte.',
    noAnswerNoForm:
      'Lo sentimos, nadie de nuestro equipo ha podido unirse a tiempo. Vuelve a escribirnos más tarde; mientras tanto, el bot vuelve a responder.',
    alreadyWaiting: 'Ya estás esperando a una persona; alguien de nuestro equipo se unirá enseguida.',
    alreadyWithAgent: 'Ya estás hablando con una persona de nuestro equipo.',
    closed: 'Esta conversación se ha cerrado. Escríbenos cuando quieras para reabrirla.',
    closedIdle:
      'Esta conversación se ha cerrado tras un tiempo sin mensajes. Escríbenos cuando quieras para reabrirla.',
    reopened: 'La conversación vuelve a estar abierta.',
    agentJoined: (name) => `${name}, de nuestro equipo, se ha unido a la conversación.`,
    botBack: 'Vuelves a hablar con el bot.',
    agentAway: 'La persona de nuestro equipo ha tenido que irse; el bot vuelve a responder.',
    leaveContact: 'Deja tus datos de contacto',
  },
  french: {
    requested: (n) =>
      `Vous avez demandé à parler à une personne. Quelqu’un de notre équipe va vous rejoindre ; ${n <= 1 ? 'vous êtes le prochain dans la file.' : `vous êtes numéro ${n} dans la file.`}`,
    nobodyOnline:
      'Personne de notre équipe n’est en ligne pour le moment. Laissez votre nom, votre e-mail et votre question, et nous vous répondrons dès que possible.',
    noAnswer:
      'Désolé, personne de notre équipe n’a pu vous rejoindre à temps. Laissez votre nom, votre e-mail et votre question, et nous vous répondrons ; en attendant, le bot répond de nouveau.',
    noAnswerContactLeft:
      'Désolé, personne de notre équipe n’a pu vous rejoindre à temps. Nous avons vos coordonnées et nous vous répondrons ; en attendant, le bot répond de nouveau.',
    contactLeft: (name, email) =>
      `Merci, ${name}. Quelqu’un de notre équipe écrira à ${email} au sujet de votre question dès que possible.`,
    nobodyOnlineNoForm:
      'Personne de notre équipe n’est en ligne pour le moment. Revenez plus tard ; en attendant, le bot peut vous aider.',
    noAnswerNoForm:
      'Désolé, personne de notre équipe n’a pu vous rejoindre à temps. Revenez plus tard ; en attendant, le bot répond de nouveau.',
    alreadyWaiting: 'Vous attendez déjà une personne ; quelqu’un de notre équipe va vous rejoindre.',
    alreadyWithAgent: 'Vous parlez déjà avec une personne de notre équipe.',
    closed: 'Cette conversation a été fermée. Écrivez-nous à tout moment pour la rouvrir.',
    closedIdle:
      'Cette conversation a été fermée après un moment sans message. Écrivez-nous à tout moment pour la rouvrir.',
    reopened: 'La conversation est de nouveau ouverte.',
    agentJoined: (name) => `${name}, de notre équipe, a rejoint la conversation.`,
    botBack: 'Vous discutez de nouveau avec le bot.',
    agentAway: 'Le membre de notre équipe a dû partir ; le bot répond de nouveau.',
    leaveContact: 'Laissez vos coordonnées',
  },
  german: {
    requested: (n) =>
      `Sie möchten mit einer Person sprechen. Jemand aus unserem Team ist gleich für Sie da; ${n <= 1 ? 'Sie sind als Nächstes an der Reihe.' : `Sie sind Nummer ${n} in der Warteschlange.`}`,
    nobodyOnline:
      'Gerade ist niemand aus unserem Team online. Hinterlassen Sie Ihren Namen, Ihre E-Mail-Adresse und Ihre Frage, dann melden wir uns so bald wie möglich.',
    noAnswer:
      'Leider konnte niemand aus unserem Team rechtzeitig übernehmen. Hinterlassen Sie Ihren Namen, Ihre E-Mail-Adresse und Ihre Frage, dann melden wir uns; bis dahin antwortet wieder der Bot.',
    noAnswerContactLeft:
      'Leider konnte niemand aus unserem Team rechtzeitig übernehmen. Wir haben Ihre Daten und melden uns bei Ihnen; bis dahin antwortet wieder der Bot.',
    contactLeft: (name, email) =>
      `Danke, ${name}. Jemand aus unserem Team schreibt Ihnen so bald wie möglich an ${email} zu Ihrer Frage.`,
    nobodyOnlineNoForm:
      'Gerade ist niemand aus unserem Team online. Bitte schauen Sie später wieder vorbei; bis dahin hilft Ihnen der Bot.',
    noAnswerNoForm:
      'Leider konnte niemand aus unserem Team rechtzeitig übernehmen. Bitte schauen Sie später wieder vorbei; bis dahin antwortet wieder der Bot.',
    alreadyWaiting: 'Sie warten bereits auf eine Person; jemand aus unserem Team ist gleich für Sie da.',
    alreadyWithAgent: 'Sie sprechen bereits mit einer Person aus unserem Team.',
    closed: 'Diese Unterhaltung wurde beendet. Schreiben Sie uns jederzeit wieder, um sie fortzusetzen.',
    closedIdle:
      'Diese Unterhaltung wurde nach einer Weile ohne Nachrichten beendet. Schreiben Sie uns jederzeit wieder, um sie fortzusetzen.',
    reopened: 'Die Unterhaltung ist wieder geöffnet.',
    agentJoined: (name) => `${name} aus unserem Team ist der Unterhaltung beigetreten.`,
    botBack: 'Sie chatten wieder mit dem Bot.',
    agentAway: 'Unser Teammitglied musste gehen; der Bot antwortet wieder.',
    leaveContact: 'Kontaktdaten hinterlassen',
  },
  italian: {
    requested: (n) =>
      `Hai chiesto di parlare con una persona. Qualcuno del nostro team ti raggiungerà a breve; ${n <= 1 ? 'sei il prossimo in coda.' : `sei il numero ${n} in coda.`}`,
    nobodyOnline:
      'Al momento nessuno del nostro team è online. Lascia il tuo nome, la tua email e la tua domanda e ti risponderemo il prima possibile.',
    noAnswer:
      'Ci dispiace, nessuno del nostro team è riuscito a rispondere in tempo. Lascia il tuo nome, la tua email e la tua domanda e ti risponderemo; nel frattempo risponde di nuovo il bot.',
    noAnswerContactLeft:
      'Ci dispiace, nessuno del nostro team è riuscito a rispondere in tempo. Abbiamo i tuoi dati e ti risponderemo; nel frattempo risponde di nuovo il bot.',
    contactLeft: (name, email) =>
      `Grazie, ${name}. Qualcuno del nostro team scriverà a ${email} sulla tua domanda il prima possibile.`,
    nobodyOnlineNoForm:
      'Al momento nessuno del nostro team è online. Riprova più tardi; nel frattempo il bot può aiutarti.',
    noAnswerNoForm:
      'Ci dispiace, nessuno del nostro team è riuscito a rispondere in tempo. Riprova più tardi; nel frattempo risponde di nuovo il bot.',
    alreadyWaiting: 'Stai già aspettando una persona; qualcuno del nostro team ti raggiungerà a breve.',
    alreadyWithAgent: 'Stai già parlando con una persona del nostro team.',
    closed: 'Questa conversazione è stata chiusa. Scrivici quando vuoi per riaprirla.',
    closedIdle:
      'Questa conversazione è stata chiusa dopo un po’ di tempo senza messaggi. Scrivici quando vuoi per riaprirla.',
    reopened: 'La conversazione è di nuovo aperta.',
    agentJoined: (name) => `${name} del nostro team si è unito alla conversazione.`,
    botBack: 'Stai di nuovo chattando con il bot.',
    agentAway: 'Il membro del nostro team si è dovuto assentare; risponde di nuovo il bot.',
    leaveContact: 'Lascia i tuoi contatti',
  },
  portuguese: {
    requested: (n) =>
      `Pediu para falar com uma pessoa. Alguém da nossa equipa vai juntar-se a si em breve; ${n <= 1 ? 'é o próximo na fila.' : `é o número ${n} na fila.`}`,
    nobodyOnline:
      'Neste momento não está ninguém da nossa equipa online. Deixe o seu nome, o seu email e a sua pergunta, e responderemos assim que possível.',
    noAnswer:
      'Lamentamos, ninguém da nossa equipa conseguiu responder a tempo. Deixe o seu nome, o seu email e a sua pergunta, e responderemos; entretanto, o bot volta a responder.',
    noAnswerContactLeft:
      'Lamentamos, ninguém da nossa equipa conseguiu responder a tempo. Temos os seus dados e entraremos em contacto; entretanto, o bot volta a responder.',
    contactLeft: (name, email) =>
      `Obrigado, ${name}. Alguém da nossa equipa vai escrever para ${email} sobre a sua pergunta assim que possível.`,
    nobodyOnlineNoForm:
      'Neste momento não está ninguém da nossa equipa online. Volte mais tarde; entretanto, o bot pode ajudar.',
    noAnswerNoForm:
      'Lamentamos, ninguém da nossa equipa conseguiu responder a tempo. Volte mais tarde; entretanto, o bot volta a responder.',
    alreadyWaiting: 'Já está à espera de uma pessoa; alguém da nossa equipa vai juntar-se a si em breve.',
    alreadyWithAgent: 'Já está a falar com uma pessoa da nossa equipa.',
    closed: 'Esta conversa foi encerrada. Escreva-nos quando quiser para a reabrir.',
    closedIdle:
      'Esta conversa foi encerrada após algum tempo sem mensagens. Escreva-nos quando quiser para a reabrir.',
    reopened: 'A conversa está novamente aberta.',
    agentJoined: (name) => `${name}, da nossa equipa, juntou-se à conversa.`,
    botBack: 'Está novamente a conversar com o bot.',
    agentAway: 'O membro da nossa equipa teve de sair; o bot volta a responder.',
    leaveContact: 'Deixe os seus contactos',
  },
  dutch: {
    requested: (n) =>
      `U wilt met een medewerker praten. Iemand van ons team komt zo bij u; ${n <= 1 ? 'u bent de volgende.' : `u bent nummer ${n} in de wachtrij.`}`,
    nobodyOnline:
      'Er is op dit moment niemand van ons team online. Laat uw naam, e-mailadres en vraag achter, dan nemen we zo snel mogelijk contact met u op.',
    noAnswer:
      'Sorry, er kon niemand van ons team op tijd bij u komen. Laat uw naam, e-mailadres en vraag achter, dan nemen we contact met u op; intussen antwoordt de bot weer.',
    noAnswerContactLeft:
      'Sorry, er kon niemand van ons team op tijd bij u komen. We hebben uw gegevens en nemen contact met u op; intussen antwoordt de bot weer.',
    contactLeft: (name, email) =>
      `Bedankt, ${name}. Iemand van ons team mailt u zo snel mogelijk op ${email} over uw vraag.`,
    nobodyOnlineNoForm:
      'Er is op dit moment niemand van ons team online. Probeer het later nog eens; intussen kan de bot u helpen.',
    noAnswerNoForm:
      'Sorry, er kon niemand van ons team op tijd bij u komen. Probeer het later nog eens; intussen antwoordt de bot weer.',
    alreadyWaiting: 'U wacht al op een medewerker; iemand van ons team komt zo bij u.',
    alreadyWithAgent: 'U praat al met iemand van ons team.',
    closed: 'Dit gesprek is gesloten. Stuur ons op elk moment een bericht om het te heropenen.',
    closedIdle:
      'Dit gesprek is gesloten na een tijd zonder berichten. Stuur ons op elk moment een bericht om het te heropenen.',
    reopened: 'Het gesprek is weer geopend.',
    agentJoined: (name) => `${name} van ons team neemt deel aan het gesprek.`,
    botBack: 'U chat weer met de bot.',
    agentAway: 'Ons teamlid moest weg; de bot antwoordt weer.',
    leaveContact: 'Laat uw contactgegevens achter',
  },
  russian: {
    requested: (n) =>
      n <= 1
        ? 'Вы попросили связать вас с сотрудником. Скоро к вам присоединится кто-то из нашей команды; перед вами в очереди никого нет.'
        : `Вы попросили связать вас с сотрудником. Скоро к вам присоединится кто-то из нашей команды; ваш номер в очереди — ${n}.`,
    nobodyOnline:
      'Сейчас никого из нашей команды нет в сети. Оставьте своё имя, адрес электронной почты и вопрос, и мы ответим вам как можно скорее.',
    noAnswer:
      'К сожалению, никто из нашей команды не успел подключиться. Оставьте своё имя, адрес электронной почты и вопрос, и мы вам ответим; а пока снова отвечает бот.',
    noAnswerContactLeft:
      'К сожалению, никто из нашей команды не успел подключиться. Ваши данные у нас есть, и мы вам ответим; а пока снова отвечает бот.',
    nobodyOnlineNoForm:
      'Сейчас никого из нашей команды нет в сети. Пожалуйста, загляните позже; а пока вам может помочь бот.',
    noAnswerNoForm:
      'К сожалению, никто из нашей команды не успел подключиться. Пожалуйста, загляните позже; а пока снова отвечает бот.',
    alreadyWaiting: 'Вы уже ждёте сотрудника; скоро к вам присоединится кто-то из нашей команды.',
    alreadyWithAgent: 'Вы уже общаетесь с сотрудником нашей команды.',
    closed: 'Этот диалог завершён. Напишите нам в любое время, чтобы продолжить его.',
    closedIdle:
      'Этот диалог завершён, так как в нём долго не было сообщений. Напишите нам в любое время, чтобы продолжить его.',
    reopened: 'Диалог снова открыт.',
    botBack: 'Вы снова общаетесь с ботом.',
    agentAway: 'Сотруднику нашей команды пришлось отойти; снова отвечает бот.',
    leaveContact: 'Оставить контактные данные',
    contactLeft: (name, email) =>
      `Спасибо, ${name}! Кто-то из нашей команды напишет вам на ${email} по поводу вашего вопроса, как только сможет.`,
    agentJoined: (name) => `${name} из нашей команды теперь с вами в чате.`,
  },
  hungarian: {
    requested: (n) =>
      n <= 1
        ? 'Ön egy munkatárssal szeretne beszélni. Csapatunk egyik tagja hamarosan csatlakozik; Ön következik a sorban.'
        : `Ön egy munkatárssal szeretne beszélni. Csapatunk egyik tagja hamarosan csatlakozik; Ön ${n}. a sorban.`,
    nobodyOnline:
      'Csapatunkból jelenleg senki sem elérhető. Hagyja meg nevét, e-mail-címét és kérdését, és amint tudunk, válaszolunk.',
    noAnswer:
      'Sajnáljuk, csapatunkból senki sem tudott időben csatlakozni. Hagyja meg nevét, e-mail-címét és kérdését, és válaszolunk Önnek; addig is ismét a bot válaszol.',
    noAnswerContactLeft:
      'Sajnáljuk, csapatunkból senki sem tudott időben csatlakozni. Megvannak az adatai, és válaszolunk Önnek; addig is ismét a bot válaszol.',
    nobodyOnlineNoForm:
      'Csapatunkból jelenleg senki sem elérhető. Kérjük, nézzen vissza később; addig is a bot szívesen segít.',
    noAnswerNoForm:
      'Sajnáljuk, csapatunkból senki sem tudott időben csatlakozni. Kérjük, nézzen vissza később; addig is ismét a bot válaszol.',
    alreadyWaiting: 'Ön már vár egy munkatársra; csapatunk egyik tagja hamarosan csatlakozik.',
    alreadyWithAgent: 'Ön már csapatunk egyik munkatársával beszélget.',
    closed: 'Ez a beszélgetés lezárult. Ha bármikor újra ír nekünk, a beszélgetés ismét megnyílik.',
    closedIdle:
      'Ez a beszélgetés lezárult, mert egy ideje nem érkezett üzenet. Ha bármikor újra ír nekünk, a beszélgetés ismét megnyílik.',
    reopened: 'A beszélgetés ismét megnyílt.',
    botBack: 'Ismét a bottal beszélget.',
    agentAway: 'Munkatársunknak távoznia kellett; ismét a bot válaszol.',
    leaveContact: 'Elérhetőség megadása',
    contactLeft: (name, email) =>
      `Köszönjük, ${name}! Csapatunk egyik tagja a lehető leghamarabb ír Önnek a kérdésével kapcsolatban erre a címre: ${email}.`,
    agentJoined: (name) => `${name}, csapatunk tagja, csatlakozott a beszélgetéshez.`,
  },
  turkish: {
    requested: (n) =>
      n <= 1
        ? 'Bir temsilciyle görüşmek istediniz. Ekibimizden biri birazdan sohbete katılacak; sıradaki sizsiniz.'
        : `Bir temsilciyle görüşmek istediniz. Ekibimizden biri birazdan sohbete katılacak; şu anda ${n}. sıradasınız.`,
    nobodyOnline:
      'Şu anda ekibimizden kimse çevrimiçi değil. Adınızı, e-posta adresinizi ve sorunuzu bırakın; size en kısa sürede geri dönüş yapalım.',
    noAnswer:
      'Üzgünüz, ekibimizden kimse zamanında sohbete katılamadı. Adınızı, e-posta adresinizi ve sorunuzu bırakın, size geri dönüş yapalım; bu arada bot yeniden yanıt veriyor.',
    noAnswerContactLeft:
      'Üzgünüz, ekibimizden kimse zamanında sohbete katılamadı. Bilgileriniz bizde, size geri dönüş yapacağız; bu arada bot yeniden yanıt veriyor.',
    nobodyOnlineNoForm:
      'Şu anda ekibimizden kimse çevrimiçi değil. Lütfen daha sonra tekrar yazın; bu arada bot size yardımcı olabilir.',
    noAnswerNoForm:
      'Üzgünüz, ekibimizden kimse zamanında sohbete katılamadı. Lütfen daha sonra tekrar yazın; bu arada bot yeniden yanıt veriyor.',
    alreadyWaiting: 'Zaten bir temsilci bekliyorsunuz; ekibimizden biri birazdan sohbete katılacak.',
    alreadyWithAgent: 'Zaten ekibimizden bir temsilciyle görüşüyorsunuz.',
    closed: 'Bu sohbet kapatıldı. Yeniden açmak için dilediğiniz zaman tekrar yazabilirsiniz.',
    closedIdle:
      'Bu sohbet, bir süre mesaj gelmediği için kapatıldı. Yeniden açmak için dilediğiniz zaman tekrar yazabilirsiniz.',
    reopened: 'Sohbet yeniden açıldı.',
    botBack: 'Artık yeniden bot ile sohbet ediyorsunuz.',
    agentAway: 'Temsilcimiz sohbetten ayrılmak zorunda kaldı; bot yeniden yanıt veriyor.',
    leaveContact: 'İletişim bilgilerinizi bırakın',
    contactLeft: (name, email) =>
      `Teşekkürler, ${name}. Ekibimizden biri sorunuzla ilgili en kısa sürede ${email} adresine yazacak.`,
    agentJoined: (name) => `Ekibimizden ${name} sohbete katıldı.`,
  },
  danish: {
    requested: (n) =>
      n <= 1
        ? 'Du har bedt om at tale med en person. En fra vores team er hos dig om lidt – du er den næste i køen.'
        : `Du har bedt om at tale med en person. En fra vores team er hos dig om lidt – du er nummer ${n} i køen.`,
    nobodyOnline:
      'Der er ingen fra vores team online lige nu. Skriv dit navn, din e-mail og dit spørgsmål, så vender vi tilbage hurtigst muligt.',
    noAnswer:
      'Beklager, ingen fra vores team nåede at svare i tide. Skriv dit navn, din e-mail og dit spørgsmål, så vender vi tilbage til dig. Indtil da svarer botten igen.',
    noAnswerContactLeft:
      'Beklager, ingen fra vores team nåede at svare i tide. Vi har dine oplysninger og vender tilbage til dig. Indtil da svarer botten igen.',
    nobodyOnlineNoForm:
      'Der er ingen fra vores team online lige nu. Prøv igen lidt senere – indtil da kan botten hjælpe dig.',
    noAnswerNoForm:
      'Beklager, ingen fra vores team nåede at svare i tide. Prøv igen lidt senere – indtil da svarer botten igen.',
    alreadyWaiting: 'Du venter allerede på en person – en fra vores team er hos dig om lidt.',
    alreadyWithAgent: 'Du taler allerede med en person fra vores team.',
    closed: 'Denne samtale er afsluttet. Skriv igen når som helst for at genåbne den.',
    closedIdle:
      'Denne samtale blev afsluttet efter et stykke tid uden beskeder. Skriv igen når som helst for at genåbne den.',
    reopened: 'Samtalen er åben igen.',
    botBack: 'Du chatter med botten igen.',
    agentAway: 'Vores medarbejder måtte gå – botten svarer igen.',
    leaveContact: 'Efterlad dine kontaktoplysninger',
    contactLeft: (name, email) =>
      `Tak, ${name}. En fra vores team skriver til ${email} om dit spørgsmål hurtigst muligt.`,
    agentJoined: (name) => `${name} fra vores team er kommet med i samtalen.`,
  },
  swedish: {
    requested: (n) =>
      n <= 1
        ? 'Du har bett att få prata med en person. Någon i vårt team ansluter strax – du står näst på tur.'
        : `Du har bett att få prata med en person. Någon i vårt team ansluter strax – du är nummer ${n} i kön.`,
    nobodyOnline:
      'Ingen i vårt team är online just nu. Lämna ditt namn, din e-postadress och din fråga, så återkommer vi så snart vi kan.',
    noAnswer:
      'Tyvärr kunde ingen i vårt team ansluta i tid. Lämna ditt namn, din e-postadress och din fråga, så återkommer vi. Under tiden svarar boten igen.',
    noAnswerContactLeft:
      'Tyvärr kunde ingen i vårt team ansluta i tid. Vi har dina uppgifter och återkommer till dig. Under tiden svarar boten igen.',
    nobodyOnlineNoForm:
      'Ingen i vårt team är online just nu. Välkommen tillbaka lite senare – under tiden kan boten hjälpa dig.',
    noAnswerNoForm:
      'Tyvärr kunde ingen i vårt team ansluta i tid. Välkommen tillbaka lite senare – under tiden svarar boten igen.',
    alreadyWaiting: 'Du väntar redan på en person – någon i vårt team ansluter strax.',
    alreadyWithAgent: 'Du pratar redan med en person i vårt team.',
    closed: 'Den här konversationen har avslutats. Skriv igen när du vill, så öppnas den på nytt.',
    closedIdle:
      'Den här konversationen avslutades efter en stund utan meddelanden. Skriv igen när du vill, så öppnas den på nytt.',
    reopened: 'Konversationen är öppen igen.',
    botBack: 'Du chattar med boten igen.',
    agentAway: 'Vår medarbetare var tvungen att gå – boten svarar igen.',
    leaveContact: 'Lämna dina kontaktuppgifter',
    contactLeft: (name, email) =>
      `Tack, ${name}. Någon i vårt team skriver till ${email} om din fråga så snart som möjligt.`,
    agentJoined: (name) => `${name} från vårt team har anslutit till konversationen.`,
  },
  norwegian: {
    requested: (n) =>
      n <= 1
        ? 'Du har bedt om å få snakke med en person. Noen fra teamet vårt er straks hos deg; du er den neste i køen.'
        : `Du har bedt om å få snakke med en person. Noen fra teamet vårt er straks hos deg; du er nummer ${n} i køen.`,
    nobodyOnline:
      'Akkurat nå er ingen fra teamet vårt pålogget. Legg igjen navnet ditt, e-postadressen din og spørsmålet ditt, så svarer vi deg så snart som mulig.',
    noAnswer:
      'Beklager, ingen fra teamet vårt rakk å svare. Legg igjen navnet ditt, e-postadressen din og spørsmålet ditt, så svarer vi deg; i mellomtiden svarer boten igjen.',
    noAnswerContactLeft:
      'Beklager, ingen fra teamet vårt rakk å svare. Vi har opplysningene dine og tar kontakt med deg; i mellomtiden svarer boten igjen.',
    nobodyOnlineNoForm:
      'Akkurat nå er ingen fra teamet vårt pålogget. Prøv gjerne igjen senere; i mellomtiden kan boten hjelpe deg.',
    noAnswerNoForm:
      'Beklager, ingen fra teamet vårt rakk å svare. Prøv gjerne igjen senere; i mellomtiden svarer boten igjen.',
    alreadyWaiting: 'Du venter allerede på en person; noen fra teamet vårt er straks hos deg.',
    alreadyWithAgent: 'Du snakker allerede med en person fra teamet vårt.',
    closed: 'Denne samtalen er avsluttet. Skriv til oss når som helst for å åpne den igjen.',
    closedIdle:
      'Denne samtalen ble avsluttet etter en stund uten meldinger. Skriv til oss når som helst for å åpne den igjen.',
    reopened: 'Samtalen er åpnet igjen.',
    botBack: 'Du chatter med boten igjen.',
    agentAway: 'Medarbeideren fra teamet vårt måtte gå; boten svarer igjen.',
    leaveContact: 'Legg igjen kontaktinformasjon',
    contactLeft: (name, email) =>
      `Takk, ${name}. Noen fra teamet vårt skriver til ${email} om spørsmålet ditt så snart som mulig.`,
    agentJoined: (name) => `${name} fra teamet vårt har blitt med i samtalen.`,
  },
  finnish: {
    requested: (n) =>
      n <= 1
        ? 'Pyysit päästä keskustelemaan ihmisen kanssa. Joku tiimistämme liittyy keskusteluun pian; olet jonossa seuraavana.'
        : `Pyysit päästä keskustelemaan ihmisen kanssa. Joku tiimistämme liittyy keskusteluun pian; olet jonossa sijalla ${n}.`,
    nobodyOnline:
      'Kukaan tiimistämme ei ole juuri nyt paikalla. Jätä nimesi, sähköpostiosoitteesi ja kysymyksesi, niin vastaamme sinulle mahdollisimman pian.',
    noAnswer:
      'Valitettavasti kukaan tiimistämme ei ehtinyt vastata ajoissa. Jätä nimesi, sähköpostiosoitteesi ja kysymyksesi, niin vastaamme sinulle; sillä välin botti vastaa taas.',
    noAnswerContactLeft:
      'Valitettavasti kukaan tiimistämme ei ehtinyt vastata ajoissa. Meillä on yhteystietosi ja vastaamme sinulle; sillä välin botti vastaa taas.',
    nobodyOnlineNoForm:
      'Kukaan tiimistämme ei ole juuri nyt paikalla. Yritä myöhemmin uudelleen; sillä välin botti voi auttaa sinua.',
    noAnswerNoForm:
      'Valitettavasti kukaan tiimistämme ei ehtinyt vastata ajoissa. Yritä myöhemmin uudelleen; sillä välin botti vastaa taas.',
    alreadyWaiting: 'Odotat jo asiakaspalvelijaa; joku tiimistämme liittyy keskusteluun pian.',
    alreadyWithAgent: 'Keskustelet jo tiimimme jäsenen kanssa.',
    closed: 'Tämä keskustelu on suljettu. Voit avata sen uudelleen kirjoittamalla meille milloin tahansa.',
    closedIdle:
      'Tämä keskustelu suljettiin, koska siihen ei tullut hetkeen viestejä. Voit avata sen uudelleen kirjoittamalla meille milloin tahansa.',
    reopened: 'Keskustelu on taas avoinna.',
    botBack: 'Keskustelet taas botin kanssa.',
    agentAway: 'Tiimimme jäsenen piti lähteä; botti vastaa taas.',
    leaveContact: 'Jätä yhteystietosi',
    contactLeft: (name, email) =>
      `Kiitos, ${name}. Joku tiimistämme vastaa kysymykseesi osoitteeseen ${email} mahdollisimman pian.`,
    agentJoined: (name) => `${name} tiimistämme liittyi keskusteluun.`,
  },
};

/**
 * The notices in the language the widget spoke to the conversation's visitor in, else the one its
 * bot speaks to visitors in (its setting, or its sources').
 */
export async function noticesFor(tx: DbOrTx, conversation: ConversationRow): Promise<VisitorNotices> {
  if (conversation.visitorLanguage) return VISITOR_NOTICES[conversation.visitorLanguage];
  const [bot] = await tx
    .select({ setting: bots.visitorLanguage })
    .from(bots)
    .where(eq(bots.id, conversation.botId));
  const setting = bot?.setting ?? 'auto';
  const sources =
    setting === 'auto' ? await sourceLanguagesOf(tx, conversation.tenantId, conversation.botId) : [];
  return VISITOR_NOTICES[visitorLanguageOf(setting, sources)];
}
