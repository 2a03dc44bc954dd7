import { describe, expect, it } from 'vitest';
import { countryOf, e164, guessMapping } from './contacts.service.js';
import { componentsOf, templateMessage, templateProblems, variablesOf } from './template-rules.js';

const base = {
  name: 'order_update',
  body: 'Hi {{1}}, order {{2}} shipped.',
  body_examples: ['Ada', 'A-1'],
  header: null,
  footer: null,
  buttons: [],
};

describe('template rules', () => {
  it('accepts a well-formed template', () => {
    expect(templateProblems(base)).toEqual([]);
  });

  it('finds what Meta refuses', () => {
    expect(templateProblems({ ...base, name: 'Order-Update' })).toEqual([
      'Name may contain only lowercase letters, digits and underscores',
    ]);
    expect(templateProblems({ ...base, body: '{{1}} shipped', body_examples: ['x'] })).toContain(
      'The body may not start or end with a variable',
    );
    expect(templateProblems({ ...base, body: 'Hi {{2}} there.', body_examples: ['x', 'y'] })).toContain(
      'Body variables must be numbered {{1}}, {{2}}... without gaps',
    );
    expect(templateProblems({ ...base, body_examples: ['Ada', ' '] })).toContain(
      'Give an example for every body variable',
    );
    expect(
      templateProblems({
        ...base,
        buttons: [
          { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+14155550100' },
          { type: 'PHONE_NUMBER', text: 'Call 2', phone_number: '+14155550101' },
        ],
      }),
    ).toEqual(['At most 1 phone number button']);
    expect(templateProblems({ ...base, header: { format: 'TEXT', text: 'Hello {{1}}' } })).toEqual([
      'Give an example for the header variable',
    ]);
  });

  it('builds Meta’s components and the message with its values', () => {
    expect(variablesOf('a {{1}} b {{ 2 }}')).toEqual([1, 2]);
    expect(componentsOf({ ...base, footer: 'Thanks' })).toEqual([
      { type: 'BODY', text: base.body, example: { body_text: [['Ada', 'A-1']] } },
      { type: 'FOOTER', text: 'Thanks' },
    ]);
    const { message, text } = templateMessage({ ...base, language: 'en', header: null, footer: 'Thanks' }, [
      'Grace',
      'B-2',
    ]);
    expect(text).toBe('Hi Grace, order B-2 shipped.\n\nThanks');
    expect(message).toEqual({
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Grace' },
              { type: 'text', text: 'B-2' },
            ],
          },
        ],
      },
    });
    expect(
      templateMessage({ ...base, language: 'en', header: null, footer: null }, ['Grace']).message,
    ).toBeNull();
  });

  it('sends a media header by its https link, and refuses without one', () => {
    const withImage = {
      ...base,
      language: 'en',
      header: { format: 'IMAGE', media_handle: '4::h' },
      footer: null,
    };
    expect(templateMessage(withImage, ['Grace', 'B-2']).message).toBeNull();
    expect(templateMessage(withImage, ['Grace', 'B-2'], 'http://insecure.example/a.png').message).toBeNull();
    const { message, text } = templateMessage(withImage, ['Grace', 'B-2'], 'https://cdn.example/sale.png');
    expect(message).toMatchObject({
      template: {
        components: [
          {
            type: 'header',
            parameters: [{ type: 'image', image: { link: 'https://cdn.example/sale.png' } }],
          },
          { type: 'body' },
        ],
      },
    });
    expect(text).toBe('https://cdn.example/sale.png\n\nHi Grace, order B-2 shipped.');
  });
});

describe('contacts', () => {
  it('normalises numbers to E.164 and refuses what is not one', () => {
    expect(e164('+1 (415) 555-0123')).toBe('+14155550123');
    expect(e164('0044 20 7946 0958')).toBe('+442079460958');
    expect(e164('919876543210')).toBe('+919876543210');
    expect(e164('12345')).toBeNull();
    expect(e164('')).toBeNull();
  });

  it("reads bare national numbers as the business's country, never as another country's", () => {
    // Without the business's country, an Indian mobile written nationally passes as Thai or Pakistani.
    expect(e164('6624130486')).toBe('+6624130486');
    expect(e164('6624130486', 'IN')).toBe('+916624130486');
    expect(e164('92923 67297', 'IN')).toBe('+919292367297');
    expect(e164('09876543210', 'IN')).toBe('+919876543210');
    expect(e164('919876543210', 'IN')).toBe('+919876543210');
    expect(e164('07911 123456', 'GB')).toBe('+447911123456');
    // Written with their country code, numbers of other countries stay theirs.
    expect(e164('+1 415 555 0123', 'IN')).toBe('+14155550123');
    expect(e164('0044 7911 123456', 'IN')).toBe('+447911123456');
    expect(e164('4915123456789', 'IN')).toBe('+4915123456789');
    expect(e164("'+14155550123", 'IN')).toBe('+14155550123');
    expect(e164('="+14155550123"', 'IN')).toBe('+14155550123');
    expect(e164('12345', 'IN')).toBeNull();
    expect(countryOf('+91 98765 43210')).toBe('IN');
    expect(countryOf('1 415 555 0100')).toBe('US');
    expect(countryOf('')).toBeUndefined();
  });

  it('guesses the mapping from the header', () => {
    expect(guessMapping(['WhatsApp Number', 'Name', 'Email Address', 'Tags'])).toEqual({
      phone: 'WhatsApp Number',
      name: 'Name',
      email: 'Email Address',
      tags: 'Tags',
    });
    expect(guessMapping(['first', 'last'])).toBeNull();
  });
});
