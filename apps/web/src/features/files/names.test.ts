import { FILE_MESSAGES, type FileGroup, type FileItem } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { chosenNotes, fileNamedIn, replacing } from './names';

const chosen = (name: string, size = 10) => new File(['x'.repeat(size)], name);
const item = (id: number, filename: string, status: FileItem['status'] = 'trained'): FileItem => ({
  id,
  filename,
  character_count: 10,
  size: 10,
  trained: status === 'trained',
  status,
  error: null,
  mime_type: 'text/plain',
});
const group = (files: FileItem[]): FileGroup => ({
  id: 1,
  group_name: 'Menus',
  description: null,
  user_id: 1,
  tenant_id: 1,
  collection_name: 'file_group_1',
  files,
});

describe('chosen files', () => {
  it('flags an empty file and two of one name before sending, and says which file a new one replaces', () => {
    const notes = chosenNotes(
      [
        chosen('empty.txt', 0),
        chosen('prices.csv'),
        chosen('Prices.CSV'),
        chosen('Menu.pdf'),
        chosen('hours.txt'),
      ],
      group([item(1, 'menu.pdf')]),
    );
    expect(notes).toEqual([
      { text: FILE_MESSAGES.empty('empty.txt'), problem: true },
      { text: FILE_MESSAGES.sameNameTwice('prices.csv'), problem: true },
      { text: FILE_MESSAGES.sameNameTwice('Prices.CSV'), problem: true },
      { text: 'Replaces the current menu.pdf once trained', problem: false },
      null,
    ]);
  });

  it("finds the file a server's refusal names, the longest name first", () => {
    const files = [chosen('menu.pdf'), chosen('menu.pdf.txt'), chosen('song.mp3')];
    expect(fileNamedIn('menu.pdf.txt is larger than the 20 MB limit per file', files)).toBe(1);
    expect(fileNamedIn('song.mp3: this file type is not supported.', files)).toBe(2);
    expect(fileNamedIn('At most 20 files can be uploaded at once', files)).toBe(-1);
  });

  it('tells which older file a file in training replaces', () => {
    const files = [item(1, 'menu.pdf'), item(2, 'hours.txt'), item(3, 'MENU.pdf', 'pending')];
    expect(replacing(files[2]!, group(files))?.id).toBe(1);
    expect(replacing(files[1]!, group(files))).toBeNull();
  });
});
