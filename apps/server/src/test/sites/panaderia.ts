import { servePages } from './bakery.js';

/**
 * The bakery's site as a Spanish bakery would have it (a Valencia shop writing in Spanish), for the
 * tests of answers in the language of a bot's sources: navigation, a cookie banner, the address
 * in the footer, prices in euros, an hours table and an FAQ.
 */
const NAV = ['Inicio', 'Carta', 'Envíos', 'Horario', 'Preguntas frecuentes'];
const PATHS = ['/', '/carta', '/envios', '/horario', '/preguntas'];

const layout = (title: string, body: string) => `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>${title} | Panadería Helecho Azul</title></head>
<body>
<div class="cookie-banner">Usamos cookies para mejorar tu experiencia. <button>Aceptar</button></div>
<header><a href="/" class="logo">Panadería Helecho Azul</a>
<nav><ul>${NAV.map((name, i) => `<li><a href="${PATHS[i]}">${name}</a></li>`).join('')}</ul></nav></header>
<main>${body}</main>
<footer><p>Panadería Helecho Azul, calle de Cádiz 14, València. Llámanos al 963 555 014.</p>
<p>© 2026 Panadería Helecho Azul. Todos los derechos reservados.</p></footer>
</body></html>`;

export const PANADERIA_PAGES: Record<string, string> = {
  '/': layout(
    'Inicio',
    `<h1>Pan y bollería recién hechos cada mañana</h1>
<p>Helecho Azul es una panadería de barrio en Ruzafa. Hacemos pan de masa madre, cruasanes y tartas de temporada con harina ecológica desde 2012.</p>
<p>Ven a tomar un café con una ensaimada, o deja que te llevemos el pedido a casa.</p>`,
  ),
  '/carta': layout(
    'Carta',
    `<h1>Nuestra carta</h1>
<h2>Pan</h2>
<ul><li>Hogaza de masa madre: 4,50 €</li><li>Pan de centeno con semillas: 5 €</li><li>Barra rústica: 1,80 €</li></ul>
<h2>Bollería</h2>
<ul><li>Cruasán de mantequilla: 1,60 €</li><li>Ensaimada: 2,20 €</li><li>Napolitana de chocolate: 1,90 €</li></ul>
<h2>Sin gluten</h2>
<p>Los viernes horneamos una hogaza sin gluten, que cuesta 6 €. En nuestro obrador se trabaja con trigo, así que no podemos garantizar la ausencia de trazas.</p>`,
  ),
  '/envios': layout(
    'Envíos',
    `<h1>Envíos a domicilio</h1>
<p>Llevamos pedidos a domicilio de martes a sábado, de 9:00 a 13:00.</p>
<p>El envío a domicilio cuesta 3 € y es gratis en pedidos de más de 30 €.</p>
<p>Repartimos en Ruzafa, el Ensanche y Ciutat Vella. Para otros barrios, pregúntanos antes de pedir.</p>`,
  ),
  '/horario': layout(
    'Horario',
    `<h1>Horario de apertura</h1>
<table><tr><th>Día</th><th>Horario</th></tr>
<tr><td>Lunes a viernes</td><td>7:30 – 19:30</td></tr>
<tr><td>Sábado</td><td>8:00 – 14:00</td></tr>
<tr><td>Domingo</td><td>Cerrado</td></tr></table>
<p>En agosto cerramos por vacaciones las dos primeras semanas.</p>`,
  ),
  '/preguntas': layout(
    'Preguntas frecuentes',
    `<h1>Preguntas frecuentes</h1>
<h3>¿Se puede pagar con tarjeta?</h3><p>Sí, aceptamos todas las tarjetas y el pago sin contacto.</p>
<h3>¿Tenéis opciones veganas?</h3><p>La hogaza de masa madre y la barra rústica son veganas. La ensaimada lleva manteca.</p>`,
  ),
};

export const PANADERIA_QNA = [
  {
    question: '¿Hacéis tartas de cumpleaños?',
    answer: 'Sí, las tartas personalizadas cuestan desde 35 €. Encárgala con tres días de antelación.',
  },
  {
    question: '¿Hay aparcamiento cerca?',
    answer: 'Hay un aparcamiento público en la calle de Sueca, a dos minutos andando.',
  },
];

/** Serves the Spanish bakery on a loopback port. */
export const servePanaderia = () => servePages({ ...PANADERIA_PAGES });
