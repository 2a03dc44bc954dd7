import { TEMPLATE_LIMITS, type TemplateInput } from '@parley/contracts';
import type { CloudMessage } from './cloud.client.js';
import type { whatsappTemplates } from './whatsapp.schema.js';

export type TemplateRow = typeof whatsappTemplates.$inferSelect;
type TemplateShape = Pick<TemplateInput, 'name' | 'body' | 'body_examples' | 'header' | 'footer' | 'buttons'>;

const VARIABLE = /\{\{\s*(\d+)\s*\}\}/g;

/** The numbered variables of a text, in order of appearance ({{1}}, {{2}}...). */
export function variablesOf(text: string): number[] {
  return [...text.matchAll(VARIABLE)].map((match) => Number(match[1]));
}

/**
 * What Meta would refuse, found before anything is sent: the name (lowercase letters, digits and
 * underscores), the body's length and its variables (numbered 1..n in order, each with an
 * example, not at the very start or end), header and footer lengths, buttons. Empty when valid.
 */
export function templateProblems(template: TemplateShape): string[] {
  const problems: string[] = [];
  if (!/^[a-z0-9_]+$/.test(template.name))
    problems.push('Name may contain only lowercase letters, digits and underscores');
  if (template.body.length > TEMPLATE_LIMITS.body)
    problems.push(`Body must be at most ${TEMPLATE_LIMITS.body} characters`);
  const numbers = variablesOf(template.body);
  const distinct = [...new Set(numbers)].sort((a, b) => a - b);
  if (distinct.some((n, i) => n !== i + 1))
    problems.push('Body variables must be numbered {{1}}, {{2}}... without gaps');
  if (
    template.body_examples.length < distinct.length ||
    template.body_examples.slice(0, distinct.length).some((e) => !e.trim())
  )
    problems.push('Give an example for every body variable');
  const trimmed = template.body.trim();
  if (/^\{\{\s*\d+\s*\}\}/.test(trimmed) || /\{\{\s*\d+\s*\}\}$/.test(trimmed))
    problems.push('The body may not start or end with a variable');
  const header = template.header;
  if (header?.format === 'TEXT') {
    const text = header.text ?? '';
    if (!text.trim()) problems.push('A text header needs its text');
    if (text.length > TEMPLATE_LIMITS.header)
      problems.push(`Header must be at most ${TEMPLATE_LIMITS.header} characters`);
    const headerVariables = variablesOf(text);
    if (headerVariables.length > 1 || headerVariables.some((n) => n !== 1))
      problems.push('A header may hold one variable, {{1}}');
    if (headerVariables.length === 1 && !header.example?.trim())
      problems.push('Give an example for the header variable');
  } else if (header && !header.media_handle) {
    problems.push(`Upload the header ${header.format.toLowerCase()} first`);
  }
  if ((template.footer ?? '').length > TEMPLATE_LIMITS.footer)
    problems.push(`Footer must be at most ${TEMPLATE_LIMITS.footer} characters`);
  if (variablesOf(template.footer ?? '').length) problems.push('The footer may not hold variables');
  if (template.buttons.length > TEMPLATE_LIMITS.buttons)
    problems.push(`At most ${TEMPLATE_LIMITS.buttons} buttons`);
  if (template.buttons.filter((b) => b.type === 'URL').length > 2) problems.push('At most 2 URL buttons');
  if (template.buttons.filter((b) => b.type === 'PHONE_NUMBER').length > 1)
    problems.push('At most 1 phone number button');
  return problems;
}

/** The template as Meta's message_templates endpoint takes it. */
export function componentsOf(template: TemplateShape): Record<string, unknown>[] {
  const components: Record<string, unknown>[] = [];
  const header = template.header;
  if (header?.format === 'TEXT')
    components.push({
      type: 'HEADER',
      format: 'TEXT',
      text: header.text,
      ...(variablesOf(header.text ?? '').length ? { example: { header_text: [header.example] } } : {}),
    });
  else if (header)
    components.push({
      type: 'HEADER',
      format: header.format,
      example: { header_handle: [header.media_handle] },
    });
  const count = new Set(variablesOf(template.body)).size;
  components.push({
    type: 'BODY',
    text: template.body,
    ...(count ? { example: { body_text: [template.body_examples.slice(0, count)] } } : {}),
  });
  if (template.footer) components.push({ type: 'FOOTER', text: template.footer });
  if (template.buttons.length) components.push({ type: 'BUTTONS', buttons: template.buttons });
  return components;
}

/** Fills the numbered variables; a missing value keeps its placeholder. */
export function fill(text: string, values: readonly string[]): string {
  return text.replace(VARIABLE, (whole, n: string) => values[Number(n) - 1] ?? whole);
}

/** What a template's header needs when it is sent: a text for {{1}}, a public link for media, or nothing. */
export function headerNeed(template: Pick<TemplateRow, 'header'>): 'text' | 'link' | null {
  const header = template.header;
  if (!header) return null;
  if (header.format === 'TEXT') return variablesOf(header.text ?? '').length ? 'text' : null;
  return 'link';
}

/**
 * The Cloud API message that sends an approved template with the given body values (and the
 * header's: its {{1}} text, or the https link of its image, video or document, since a sent message
 * names its media by link; the upload handle only served Meta's review), and its text as the inbox
 * shows it; or, when a value is missing, no message and the reason.
 */
export function templateMessage(
  template: Pick<TemplateRow, 'name' | 'language' | 'body' | 'header' | 'footer'>,
  values: readonly string[],
  headerValue?: string | null,
): { message: CloudMessage | null; text: string } {
  const count = new Set(variablesOf(template.body)).size;
  if (values.length < count || values.slice(0, count).some((v) => !v?.trim()))
    return { message: null, text: `This template needs ${count} value${count === 1 ? '' : 's'}` };
  const need = headerNeed(template);
  const header = headerValue?.trim() || (need === 'text' ? template.header?.example?.trim() : '') || '';
  if (need === 'link' && !/^https:\/\/\S+$/.test(header))
    return {
      message: null,
      text: `This template's header needs the https link of its ${template.header!.format.toLowerCase()}`,
    };
  const components: Record<string, unknown>[] = [];
  if (need === 'text') components.push({ type: 'header', parameters: [{ type: 'text', text: header }] });
  if (need === 'link') {
    const kind = template.header!.format.toLowerCase();
    components.push({ type: 'header', parameters: [{ type: kind, [kind]: { link: header } }] });
  }
  if (count)
    components.push({
      type: 'body',
      parameters: values.slice(0, count).map((text) => ({ type: 'text', text })),
    });
  const text = [
    template.header?.format === 'TEXT'
      ? fill(template.header.text ?? '', [header])
      : need === 'link'
        ? header
        : null,
    fill(template.body, values),
    template.footer,
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    message: {
      type: 'template',
      template: {
        name: template.name,
        language: { code: template.language },
        ...(components.length ? { components } : {}),
      },
    },
    text,
  };
}
