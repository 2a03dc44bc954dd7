import { PGlite } from '@electric-sql/pglite';
let t = performance.now();
const a = new PGlite(); await a.waitReady;
console.log('fresh init ms', Math.round(performance.now() - t));
const dump = await a.dumpDataDir('none');
t = performance.now();
const b = new PGlite({ loadDataDir: dump }); await b.waitReady;
console.log('from dump ms', Math.round(performance.now() - t), 'size', dump.size);
