/** A file whose content cannot become text: the message is shown to the user as the file's error. */
export class ExtractionError extends Error {}
