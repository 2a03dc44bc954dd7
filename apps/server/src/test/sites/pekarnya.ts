import { servePages } from './bakery.js';

/**
 * The bakery's site as a Kazan bakery would have it, in Russian: for the tests of a bot that speaks
 * one of the languages whose words are kept one file each (knowledge/words), in Cyrillic.
 */
const NAV = ['Главная', 'Меню', 'Доставка', 'Часы работы'];
const PATHS = ['/', '/menu', '/dostavka', '/chasy'];

const layout = (title: string, body: string) => `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>${title} | Пекарня «Синий папоротник»</title></head>
<body>
<div class="cookie-banner">Мы используем файлы cookie. <button>Принять</button></div>
<header><a href="/" class="logo">Пекарня «Синий папоротник»</a>
<nav><ul>${NAV.map((name, i) => `<li><a href="${PATHS[i]}">${name}</a></li>`).join('')}</ul></nav></header>
<main>${body}</main>
<footer><p>Пекарня «Синий папоротник», Казань, ул. Баумана, д. 14. Телефон: +7 (843) 555-01-14.</p></footer>
</body></html>`;

export const PEKARNYA_PAGES: Record<string, string> = {
  '/': layout(
    'Главная',
    `<h1>Свежий хлеб каждое утро</h1>
<p>Мы печём хлеб на закваске, круассаны и сезонные пироги из органической муки с 2015 года.</p>`,
  ),
  '/menu': layout(
    'Меню',
    `<h1>Наше меню</h1>
<ul><li>Хлеб на закваске: 250 ₽</li><li>Ржаной хлеб с семечками: 220 ₽</li><li>Круассан с маслом: 150 ₽</li></ul>`,
  ),
  '/dostavka': layout(
    'Доставка',
    `<h1>Доставка</h1>
<p>Доставка по Казани стоит 300 ₽, а при заказе от 2000 ₽ она бесплатная.</p>
<p>Заказы, сделанные до 12:00, привозим в тот же день.</p>`,
  ),
  '/chasy': layout(
    'Часы работы',
    `<h1>Часы работы</h1>
<ul><li>Понедельник–пятница: с 8:00 до 20:00</li><li>Суббота: с 9:00 до 18:00</li><li>Воскресенье: выходной</li></ul>`,
  ),
};

export const servePekarnya = () => servePages({ ...PEKARNYA_PAGES });
