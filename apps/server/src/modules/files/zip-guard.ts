import yauzl from 'yauzl';
import { ExtractionError } from './extraction-error.js';

/** How far an archive (DOCX, XLSX) may unpack before a parser is allowed to open it. */
export type ZipLimits = { maxUnpackedBytes: number; maxEntries: number };

const MB = 1024 * 1024;

/**
 * Refuses a zip bomb before mammoth or ExcelJS inflate it in memory: too many entries, or more bytes
 * unpacked than the limit. Each entry is inflated once as a stream and its bytes counted, so an archive
 * whose headers understate the sizes is caught too (yauzl also checks every entry against its header).
 * Memory stays at one stream buffer whatever the archive holds.
 */
export function assertZipWithinLimits(content: Uint8Array, limits: ZipLimits, label: string): Promise<void> {
  const unreadable = () => new ExtractionError(`The ${label} file could not be read`);
  const tooLarge = () =>
    new ExtractionError(
      `This ${label} file unpacks to more than ${Math.round(limits.maxUnpackedBytes / MB)} MB, more than Parley reads`,
    );
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(content.buffer, content.byteOffset, content.byteLength),
      { lazyEntries: true, validateEntrySizes: true },
      (openError, zip) => {
        if (openError || !zip) return reject(unreadable());
        let entries = 0;
        let unpacked = 0;
        let settled = false;
        const fail = (error: Error) => {
          if (settled) return;
          settled = true;
          zip.close();
          reject(error);
        };
        zip.on('error', () => fail(unreadable()));
        zip.on('end', () => {
          settled = true;
          resolve();
        });
        zip.on('entry', (entry: yauzl.Entry) => {
          entries += 1;
          if (entries > limits.maxEntries) {
            return fail(new ExtractionError(`This ${label} file holds more than ${limits.maxEntries} parts`));
          }
          if (unpacked + entry.uncompressedSize > limits.maxUnpackedBytes) return fail(tooLarge());
          if (entry.fileName.endsWith('/')) return zip.readEntry();
          zip.openReadStream(entry, (streamError, stream) => {
            if (streamError || !stream) return fail(unreadable());
            stream.on('data', (chunk: Buffer) => {
              unpacked += chunk.length;
              if (unpacked > limits.maxUnpackedBytes) {
                stream.destroy();
                fail(tooLarge());
              }
            });
            stream.on('error', () => fail(unreadable()));
            stream.on('end', () => zip.readEntry());
          });
        });
        zip.readEntry();
      },
    );
  });
}
