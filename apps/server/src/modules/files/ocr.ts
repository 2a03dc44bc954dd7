// Text from pictures of text: a photographed menu, a scanned price list. Tesseract's WebAssembly
// build (tesseract.js) with its models from the package registry (@tesseract.js-data/<code>), so
// nothing is downloaded when it runs. Loaded by the extraction workers only, as every parser is.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import type { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { detectLanguage, type Language } from '../knowledge/languages.js';

type PdfDocument = Awaited<ReturnType<typeof getDocument>['promise']>;

/**
 * Tesseract's codes of the languages it reads: English, and those Parley speaks to visitors in (an
 * accent the English model misses splits "envío" from the page's other "envío"). Russian is not
 * among them: its model is not published to the package registry, so a scan in Cyrillic is read by
 * the English model, which does not know its letters.
 */
const OCR_CODES = {
  english: 'eng',
  spanish: 'spa',
  french: 'fra',
  german: 'deu',
  italian: 'ita',
  portuguese: 'por',
  dutch: 'nld',
  danish: 'dan',
  swedish: 'swe',
  norwegian: 'nor',
  finnish: 'fin',
  hungarian: 'hun',
  turkish: 'tur',
} as const satisfies Partial<Record<Language, string>>;
type OcrLanguage = keyof typeof OCR_CODES;

const require = createRequire(import.meta.url);
/** A language's model, LSTM only, in integers: a third of the full model's size, the same reading. */
const modelDir = (language: OcrLanguage) =>
  path.join(
    path.dirname(require.resolve(`@tesseract.js-data/${OCR_CODES[language]}/package.json`)),
    '4.0.0_best_int',
  );
const isOcrLanguage = (language: Language | null): language is OcrLanguage =>
  language !== null && language in OCR_CODES;
/** Below this mean word confidence (0–100), what Tesseract read is noise: a photo with no text. */
const MIN_CONFIDENCE = 50;
/** A scanned page is rendered at twice its size (144 dpi), its longer side at most this many pixels. */
const RENDER_SCALE = 2;
const MAX_RENDER_SIDE = 2400;

/** Reads one picture's text; '' where nothing legible was found. */
export type ReadImage = (image: Uint8Array) => Promise<string>;

/**
 * Runs `use` with a reader of pictures. A picture is read in English first; when its text reads as
 * another language that Tesseract has a model for, it is read again with that model, which gets its
 * accents right. The English model garbles those accents ("öppen" reads "6ppen"), so the language
 * is told by letter trigrams too when the function words are garbled beyond telling; the second
 * reading is kept only when Tesseract is at least as sure of it, and the file's next pictures are
 * then read in that language straight away. Each language's worker is started once, when first
 * needed, and ended after.
 */
export async function withImageReader<T>(use: (read: ReadImage) => Promise<T>): Promise<T> {
  const workers = new Map<OcrLanguage, Promise<Worker>>();
  const workerFor = (language: OcrLanguage) => {
    let worker = workers.get(language);
    if (!worker) {
      // cacheMethod 'none': the model is read from the package, and no copy is written to the disk.
      worker = createWorker(OCR_CODES[language], OEM.LSTM_ONLY, {
        langPath: modelDir(language),
        gzip: true,
        cacheMethod: 'none',
      });
      workers.set(language, worker);
    }
    return worker;
  };
  const recognize = async (language: OcrLanguage, image: Uint8Array) => {
    const { data } = await (await workerFor(language)).recognize(Buffer.from(image));
    return { text: data.confidence >= MIN_CONFIDENCE ? tidy(data.text) : '', confidence: data.confidence };
  };
  let fileLanguage: OcrLanguage = 'english';
  try {
    return await use(async (image) => {
      const read = await recognize(fileLanguage, image);
      if (fileLanguage !== 'english' || !read.text) return read.text;
      const told = detectLanguage(read.text);
      if (!isOcrLanguage(told) || told === 'english') return read.text;
      const again = await recognize(told, image);
      if (!again.text || again.confidence < read.confidence) return read.text;
      fileLanguage = told;
      return again.text;
    });
  } finally {
    await Promise.allSettled([...workers.values()].map(async (worker) => (await worker).terminate()));
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
