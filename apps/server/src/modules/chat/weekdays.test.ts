import { describe, expect, it } from 'vitest';
import { dayMentions } from './weekdays.js';

const days = (text: string, given = false) => dayMentions(text, { given }).map((m) => m.days);

describe('the days of the week a text names', () => {
  it('reads full names with their endings, in the 14 languages', () => {
    expect(days('Open Mondays and on Sunday.')).toEqual([[1], [7]]);
    expect(days('Abrimos los sábados; cerrado el domingo.')).toEqual([[6], [7]]);
    expect(days('Avoinna maanantaisin ja lauantaina.')).toEqual([[1], [6]]);
    expect(days('Работаем по пятницам и в среду.')).toEqual([[5], [3]]);
    expect(days('Pazartesi ve pazar günleri kapalı.')).toEqual([[1], [7]]);
    expect(days('Hétfőn és szombaton nyitva.')).toEqual([[1], [6]]);
  });

  it('reads no day in words that only begin like one', () => {
    expect(days('A sunny Saturday money-back offer')).toEqual([[6]]);
    expect(days('среди клиентов')).toEqual([]);
  });

  it('reads a range as every day in it, round the week too', () => {
    expect(days('Tuesday to Saturday')).toEqual([[2, 3, 4, 5, 6]]);
    expect(days('de lunes a viernes')).toEqual([[1, 2, 3, 4, 5]]);
    expect(days('Friday – Monday')).toEqual([[5, 6, 7, 1]]);
  });

  it('reads short names and whole-week words only in what the model was given, beside a time or a dash', () => {
    expect(days('Mo–Fr 9–18 Uhr, Sa 9–13 Uhr', true)).toEqual([[1, 2, 3, 4, 5], [6]]);
    // In an answer, a short name only in a range of them.
    expect(days('Mo–Fr 9–18 Uhr, Sa 9–13 Uhr')).toEqual([[1, 2, 3, 4, 5]]);
    expect(days('ma 2 persone, sab 10')).toEqual([]);
    expect(days('We do like the sun', true)).toEqual([]);
    expect(days('Open M-F 9-5, Sat & Sun 10-4.', true)).toEqual([[1, 2, 3, 4, 5], [6], [7]]);
    expect(days('Open 7 days, 8am–6pm. Support 24/7.', true)).toEqual([
      [1, 2, 3, 4, 5, 6, 7],
      [1, 2, 3, 4, 5, 6, 7],
    ]);
    expect(days('Open every day; deliveries on weekdays, brunch at weekends.', true)).toEqual([
      [1, 2, 3, 4, 5, 6, 7],
      [1, 2, 3, 4, 5],
      [6, 7],
    ]);
  });
});
