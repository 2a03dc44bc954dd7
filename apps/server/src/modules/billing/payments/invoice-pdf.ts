import { formatMinor } from './money.js';

export type InvoicePdfInput = {
  number: string;
  chargedAt: Date;
  periodStart: Date | null;
  periodEnd: Date | null;
  company: string;
  lines: { description: string; quantity: number; amount: number }[];
  amount: number;
  tax: number;
  /** What refunds have given back so far (0: nothing). */
  refunded: number;
  currency: string;
  paymentId: string;
};

const day = (date: Date) => date.toISOString().slice(0, 10);
const LEFT = 50;
const RIGHT = 545;

/**
 * Parley's invoice for one charge (paid, or refunded in part or whole), an A4 page drawn with
 * pdfkit's built-in Helvetica. pdfkit is imported on the first invoice, not at the server's start.
 */
export async function renderInvoicePdf(invoice: InvoicePdfInput): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    info: { Title: `Invoice ${invoice.number}`, Author: 'Parley', CreationDate: invoice.chargedAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  header(doc, invoice);
  table(doc, invoice);
  totals(doc, invoice);
  doc.end();
  return done;
}

function header(doc: PDFKit.PDFDocument, invoice: InvoicePdfInput): void {
  doc.font('Helvetica-Bold').fontSize(22).text('Parley', LEFT, 50);
  doc.fontSize(16).text('Invoice', LEFT, 50, { align: 'right' });
  doc.font('Helvetica').fontSize(10).moveDown(1.5);
  const period =
    invoice.periodStart && invoice.periodEnd
      ? `${day(invoice.periodStart)} to ${day(invoice.periodEnd)}`
      : '-';
  const rows: [string, string][] = [
    ['Invoice number', invoice.number],
    ['Date', day(invoice.chargedAt)],
    ['Billed to', invoice.company],
    ['Service period', period],
    ['Payment', invoice.paymentId],
  ];
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('Helvetica-Bold').text(label, LEFT, y, { width: 120 });
    doc.font('Helvetica').text(value, LEFT + 130, y, { width: RIGHT - LEFT - 130 });
  }
}

function table(doc: PDFKit.PDFDocument, invoice: InvoicePdfInput): void {
  doc.moveDown(2);
  const top = doc.y;
  doc.font('Helvetica-Bold');
  doc.text('Description', LEFT, top, { width: 300 });
  doc.text('Qty', 360, top, { width: 40, align: 'right' });
  doc.text('Amount', 410, top, { width: RIGHT - 410, align: 'right' });
  doc
    .moveTo(LEFT, doc.y + 4)
    .lineTo(RIGHT, doc.y + 4)
    .stroke();
  doc.font('Helvetica').moveDown(0.8);
  for (const line of invoice.lines) {
    const y = doc.y;
    doc.text(line.description, LEFT, y, { width: 300 });
    const after = doc.y;
    doc.text(String(line.quantity), 360, y, { width: 40, align: 'right' });
    doc.text(formatMinor(line.amount, invoice.currency), 410, y, { width: RIGHT - 410, align: 'right' });
    doc.y = Math.max(after, doc.y) + 4;
  }
  doc.moveTo(LEFT, doc.y).lineTo(RIGHT, doc.y).stroke();
}

function totals(doc: PDFKit.PDFDocument, invoice: InvoicePdfInput): void {
  doc.moveDown(0.8);
  const rows: [string, number, string][] = [
    ['Subtotal', invoice.amount - invoice.tax, 'Helvetica'],
    ['Tax', invoice.tax, 'Helvetica'],
    ['Total paid', invoice.amount, 'Helvetica-Bold'],
  ];
  // A refund does not rewrite the invoice (its number and lines stand); it is shown beneath it.
  if (invoice.refunded > 0)
    rows.push(
      [invoice.refunded >= invoice.amount ? 'Refunded' : 'Partly refunded', -invoice.refunded, 'Helvetica'],
      ['Net paid', invoice.amount - invoice.refunded, 'Helvetica-Bold'],
    );
  for (const [label, value, font] of rows) {
    const y = doc.y;
    doc.font(font).text(label, 300, y, { width: 100 });
    doc.text(formatMinor(value, invoice.currency), 410, y, { width: RIGHT - 410, align: 'right' });
  }
  doc.font('Helvetica').fontSize(8).moveDown(3);
  doc.text('Paid by card through Razorpay. Amounts include tax where shown.', LEFT, doc.y, {
    width: RIGHT - LEFT,
  });
}
