import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PANADERIA_QNA, servePanaderia } from '../../server/src/test/sites/panaderia';
import {
  addTrainedQna,
  crawlViaApi,
  createBotViaApi,
  type Harness,
  openChatPage,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

/**
 * A Spanish bakery's site, crawled into a bot with no model, and its widget as a Spanish visitor
 * meets it: the widget's words, its default welcome, the answers, the bot's own lines and the
 * hand-off, all Spanish.
 */
describe('a bot whose site is in Spanish', () => {
  let h: Harness;
  let site: Awaited<ReturnType<typeof servePanaderia>>;
  beforeAll(async () => {
    site = await servePanaderia();
    h = await startHarness({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it('answers a Spanish visitor in Spanish, in a Spanish widget, and hands off in Spanish', async () => {
    const { page: owner } = await h.newPage({ width: 1300, height: 900 });
    screenshotOnFailure(owner, 'languages-owner');
    await signUp(owner, person('lucia'));
    const token = await owner.evaluate(() => localStorage.getItem('accessToken'));
    const sourceId = await crawlViaApi(h, token, `${site.url}/`, 'Helecho Azul');
    const bot = await createBotViaApi(h, owner, {
      bot_name: 'Helecho Azul',
      web_source_ids: JSON.stringify([sourceId]),
    });
    for (const pair of PANADERIA_QNA) await addTrainedQna(h, token, bot.bot_id, pair);

    // The owner sees which language questions are read in.
    await owner.goto(`/bot/${bot.bot_id}/playground`);
    await owner.getByRole('button', { name: 'What the bot finds' }).click();
    await owner.getByRole('textbox', { name: 'Question' }).fill('¿Cuánto cuesta el envío a domicilio?');
    await owner.getByRole('button', { name: 'Search' }).click();
    await owner.getByText(/Read in Spanish/).waitFor({ timeout: 20_000 });
    await owner.getByText(/Would answer from Envíos/).waitFor();

    // Appearance says what Automatic resolves to, and how the default welcome reads.
    await owner.goto(`/bot/${bot.bot_id}?tab=appearance`);
    await owner
      .getByText(/Automatic follows the language your sources are written in \(now: Español\)/)
      .waitFor();
    await owner.getByText(/“¡Te damos la bienvenida a .+! ¿En qué puedo ayudarte hoy\?”/).waitFor();

    site.pages['/visita'] =
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Visita</title></head><body>` +
      `<h1>Panadería Helecho Azul</h1><script src="${h.baseUrl}/widget.js" data-bot="${bot.uuid}" defer></script></body></html>`;
    const { page } = await h.newPage({ width: 1200, height: 900 });
    screenshotOnFailure(page, 'languages-widget');
    await page.goto(`${site.url}/visita`);
    await page.getByRole('button', { name: 'Abrir el chat' }).click();
    const chat = page.getByRole('dialog', { name: 'Chat con Helecho Azul' });
    await chat.locator('[data-testid="connection-status"][data-status="open"]').waitFor({ timeout: 20_000 });
    const box = chat.getByRole('textbox', { name: 'Mensaje' });
    expect(await box.getAttribute('placeholder')).toBe('Escribe tu mensaje…');
    // The default welcome, which the owner did not write, greets in Spanish too.
    await chat.getByText(/^¡Te damos la bienvenida a .+! ¿En qué puedo ayudarte hoy\?$/).waitFor();
    const ask = async (question: string, answer: string) => {
      await box.fill(question);
      await box.press('Enter');
      await chat.getByText(answer).first().waitFor({ timeout: 30_000 });
    };
    await ask('hola', '¡Hola! ¿En qué puedo ayudarte?');
    await ask('¿eres un bot?', 'Soy Helecho Azul, un asistente automático, no una persona.');
    await ask('¿cuánto cuesta el envío?', 'El envío a domicilio cuesta 3 €');
    await chat.getByText('Fuentes').first().waitFor();
    await ask('¿a qué hora abrís el sábado?', '8:00 – 14:00');
    await ask('¿y el domingo?', 'Domingo: Cerrado.');
    await ask('¿Vendéis pizza?', 'Lo siento, no sé la respuesta a eso.');
    await chat.getByRole('button', { name: 'Hablar con una persona' }).first().waitFor();
    await ask('no, gracias', 'De acuerdo. ¿Puedo ayudarte en algo más?');
    await ask('quiero hablar con una persona', 'Has pedido hablar con una persona.');
    await screenshot(page, 'languages-widget');

    // The agent who picks it up is told the visitor's language.
    await owner.goto('/inbox');
    const item = owner.getByTestId('handoff-queue').getByTestId('handoff-item').first();
    await item.click();
    const details = owner.getByTestId('inbox-thread').getByTestId('conversation-details');
    expect(await details.getByTestId('visitor-language').textContent()).toBe('Speaks Spanish');
    await screenshot(owner, 'languages-inbox');

    // The bot's own chat page (a link the bakery shares) speaks Spanish as its widget does.
    const linked = await openChatPage(h, bot.uuid, 'languages-chat-page');
    expect(await linked.evaluate(() => document.documentElement.lang)).toBe('es');
    const message = linked.getByRole('textbox', { name: 'Mensaje' });
    expect(await message.getAttribute('placeholder')).toBe('Escribe tu mensaje…');
    await message.fill('¿Vendéis pizza?');
    await linked.getByRole('button', { name: 'Enviar' }).click();
    await linked
      .getByText('Lo siento, no sé la respuesta a eso.', { exact: false })
      .waitFor({ timeout: 20_000 });
    await linked.getByRole('button', { name: 'Hablar con una persona' }).first().waitFor();
    await screenshot(linked, 'languages-chat-page');
  }, 120_000);
});
