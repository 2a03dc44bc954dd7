// Text from pictures of text: a photographed menu, a scanned price list. Tesseract's WebAssembly
// build (tesseract.js) with its English model from the package registry (@tesseract.js-data/eng),
// so nothing is downloaded when it runs. Loaded by the extraction workers only, as every parser is.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import type { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createWorker, OEM } from 'tesseract.js';

type PdfDocument = Awaited<ReturnType<typeof getDocument>['promise']>;

/** The English model, LSTM only, in integers: a third of the full model's size, the same reading. */
const ENGLISH = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);
/** Below this mean word confidence (0–100), what Tesseract read is noise: a photo with no text. */
const MIN_CONFIDENCE = 50;
/** A scanned page is rendered at twice its size (144 dpi), its longer side at most this many pixels. */
const RENDER_SCALE = 2;
const MAX_RENDER_SIDE = 2400;

/** Reads one picture's text; '' where nothing legible was found. */
export type ReadImage = (image: Uint8Array) => Promise<string>;

/** Runs `use` with a reader of pictures (one Tesseract worker, started once and ended after). */
export async function withImageReader<T>(use: (read: ReadImage) => Promise<T>): Promise<T> {
  // cacheMethod 'none': the model is read from the package, and no copy is written to the disk.
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: ENGLISH,
    gzip: true,
    cacheMethod: 'none',
  });
  try {
    return await use(async (image) => {
      const { data } = await worker.recognize(Buffer.from(image));
      return data.confidence >= MIN_CONFIDENCE ? tidy(data.text) : '';
    });
  } finally {
    await worker.terminate();
  }
}

/** One page of a PDF as a PNG, on white, to be read by OCR. */
export async function renderPage(document: PdfDocument, pageNumber: number): Promise<Uint8Array> {
  const page = await document.getPage(pageNumber);
  const size = page.getViewport({ scale: 1 });
  const scale = Math.min(RENDER_SCALE, MAX_RENDER_SIDE / Math.max(size.width, size.height));
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    canvasContext: context as unknown as CanvasRenderingContext2D,
    viewport,
  }).promise;
  page.cleanup();
  return canvas.encode('png');
}

/** Lines as read, trailing spaces and runs of blank lines gone. */
const tidy = (text: string) =>
  text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
