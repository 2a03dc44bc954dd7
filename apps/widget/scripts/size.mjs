// The widget's size as a browser downloads it (gzip, level 6 as servers use), against its 50 KB budget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const WIDGET_BUDGET_KB = 50;
const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/widget.js');
const body = readFileSync(file);
const gzipKb = gzipSync(body, { level: 6 }).length / 1024;
const verdict = gzipKb <= WIDGET_BUDGET_KB ? 'within budget' : 'OVER BUDGET';
console.log(
  `widget.js: ${(body.length / 1024).toFixed(1)} KB raw, ${gzipKb.toFixed(1)} KB gzip (budget ${WIDGET_BUDGET_KB} KB): ${verdict}`,
);
if (gzipKb > WIDGET_BUDGET_KB) process.exitCode = 1;
