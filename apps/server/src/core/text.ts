/** A text cut to `max` characters, its end marked with an ellipsis when it was cut. */
export const clip = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;
