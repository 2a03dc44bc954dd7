import { expect } from 'vitest';
import { fileGroups } from '../modules/files/files.schema.js';
import { replaceDocument } from '../modules/knowledge/ingest.js';
import type { Account, TestServer } from './server.js';

/**
 * Gives a bot one document to answer from: a file group holding a single page (title, address,
 * text), attached to the bot as the bot page does it.
 */
export async function attachDocument(
  server: TestServer,
  account: Account,
  botId: number,
  page: { title: string; url: string; text: string },
): Promise<void> {
  const [group] = await server.database.db
    .insert(fileGroups)
    .values({ tenantId: account.user.tenant_id, userId: account.user.id, groupName: `doc_${botId}` })
    .returning();
  await replaceDocument(server.database.db, {
    tenantId: account.user.tenant_id,
    sourceType: 'file',
    sourceId: botId * 100,
    collectionId: group!.id,
    title: page.title,
    url: page.url,
    sections: [{ text: page.text, pageNumber: 1 }],
  });
  const form = new FormData();
  form.append('file_group_ids', JSON.stringify([group!.id]));
  const updated = await fetch(`${server.url}/api/chat/bots/${botId}`, {
    method: 'PUT',
    body: form,
    headers: { authorization: `Bearer ${account.access_token}` },
  });
  expect(updated.status).toBe(200);
}
