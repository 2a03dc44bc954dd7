/**
 * Test fixture, run as its own OS process by bus.test.ts: publishes one event on a PostgreSQL
 * database so the test can see it arrive in another process.
 * Usage: node --import tsx test-publisher.fixture.ts <database-url> <topic> <payload-json>
 */
import { openDatabase } from '../db/database.js';
import { EventBus } from './bus.js';

const [url, topic, payloadJson] = process.argv.slice(2);
if (!url || !topic || payloadJson === undefined) {
  console.error('usage: test-publisher.fixture.ts <database-url> <topic> <payload-json>');
  process.exit(2);
}

const database = await openDatabase({ kind: 'postgres', url });
try {
  await new EventBus(database, { origin: `fixture-${process.pid}` }).publish(topic, JSON.parse(payloadJson));
  console.log('published');
} finally {
  await database.close();
}
