import { FILE_MESSAGES, type FileGroup, type FileItem } from '@parley/contracts';

/** What the dialog says under a chosen file before it is sent: a problem stops the upload, a note does not. */
export type ChosenNote = { text: string; problem: boolean } | null;

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The server's own refusals that the browser can see coming (an empty file, two files of one name),
 * and what adding a file does to a group holding one of its name: it replaces that file once trained.
 */
export function chosenNotes(files: readonly File[], group?: FileGroup): ChosenNote[] {
  return files.map((file, i) => {
    if (file.size === 0) return { text: FILE_MESSAGES.empty(file.name), problem: true };
    if (files.some((other, j) => j !== i && sameName(other.name, file.name)))
      return { text: FILE_MESSAGES.sameNameTwice(file.name), problem: true };
    const current = group?.files.find((existing) => sameName(existing.filename, file.name));
    return current ? { text: `Replaces the current ${current.filename} once trained`, problem: false } : null;
  });
}

/**
 * The chosen file a refusal of the server is about: its texts start with the file's name ("menu.pdf
 * is larger than the 20 MB limit per file", "song.mp3: this file type is not supported"). -1: none.
 */
export function fileNamedIn(detail: string, files: readonly File[]): number {
  let found = -1;
  files.forEach((file, i) => {
    const named = detail.startsWith(`${file.name} `) || detail.startsWith(`${file.name}:`);
    // The longest name wins: "menu.pdf" is not meant when "menu.pdf.txt" is named.
    if (named && (found < 0 || file.name.length > files[found]!.name.length)) found = i;
  });
  return found;
}

/** A file being trained that will replace an older one of its name in the group, when it is live. */
export function replacing(file: FileItem, group: FileGroup): FileItem | null {
  if (file.status !== 'pending') return null;
  return group.files.find((other) => other.id < file.id && sameName(other.filename, file.filename)) ?? null;
}
