import type { Multipart, MultipartFile } from '@fastify/multipart';
import fastifyMultipart from '@fastify/multipart';
import {
  AccountQuery,
  CampaignAnalytics,
  CampaignInput,
  CampaignLogList,
  CampaignLogsQuery,
  ContactInput,
  ContactList,
  ContactMapping,
  ContactsQuery,
  ContactUpdate,
  ConversationTemplateBody,
  EmbeddedSignupConfig,
  IdParams,
  IdText,
  ImportPreview,
  ImportQuery,
  ImportResult,
  MEDIA_TYPES,
  MediaUploadResult,
  MessageResponse,
  MetaTemplateList,
  MetaTemplatesQuery,
  OnboardBody,
  OnboardResult,
  TemplateInput,
  TemplateUpdate,
  WHATSAPP_TEXTS,
  WhatsAppAccount,
  WhatsAppCampaign,
  WhatsAppContact,
  WhatsAppLinkBody,
  WhatsAppTemplate,
  WhatsAppUnlinkBody,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest } from '../../core/errors.js';
import { requireMultipart, uploadedFileName } from '../../core/http/multipart.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import { metaWebhookRoutes } from '../social/meta-webhook.js';
import { MEDIA_NAME, readMedia } from './media.js';
import { deliveryOf } from './webhook.js';
import type { WhatsAppServices } from './whatsapp.module.js';

const tags = ['WhatsApp'];
const base = '/social/whatsapp';
const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
const MEDIA_MAX_BYTES = 20 * 1024 * 1024;
const WithMessage = <T extends z.ZodType>(key: string, schema: T) =>
  z.object({ message: z.string(), [key]: schema } as Record<string, z.ZodType>);

/** Every call under /social/whatsapp (integrations-and-billing.md, WhatsApp). */
export const whatsappRoutes =
  (deps: ModuleDeps, services: WhatsAppServices): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(accountRoutes(services));
    await app.register(templateRoutes(services));
    await app.register(contactRoutes(services));
    await app.register(campaignRoutes(services));
    await app.register(mediaRoutes(deps));
    await app.register(
      metaWebhookRoutes({
        path: `${base}/webhook`,
        tags,
        deps,
        receive: (payload) => services.conversations.receive(deliveryOf(payload)),
      }),
    );
  };

/**
 * A customer's file, for the agents reading the conversation: images, audio and video open in the
 * browser, anything else downloads; nothing it holds can run as a page of the console.
 */
function mediaRoutes(deps: ModuleDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${base}/media/:name`,
      {
        schema: {
          tags,
          summary: 'A file a WhatsApp customer sent (its unguessable name is the capability)',
          params: z.object({ name: z.string().regex(MEDIA_NAME, 'is not a file name') }),
        },
      },
      async (request, reply) => {
        const file = await readMedia(deps.config.DATA_DIR, request.params.name);
        return reply
          .type(file.mime)
          .header('content-disposition', file.inline ? 'inline' : 'attachment')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, max-age=86400')
          .send(file.bytes);
      },
    );
  };
}

function accountRoutes({ accounts, conversations }: WhatsAppServices): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${base}/embedded-signup/config`,
      {
        schema: {
          tags,
          summary: "What the console needs to open Meta's embedded signup",
          response: { 200: EmbeddedSignupConfig },
        },
      },
      async () => accounts.signupConfig(),
    );
    app.post(
      `${base}/embedded-signup/onboard`,
      {
        schema: {
          tags,
          summary:
            'Connects the number the embedded signup returned: code exchanged, number registered, app subscribed',
          body: OnboardBody,
          response: { 200: OnboardResult },
        },
      },
      async (request) => accounts.onboard(requireAuth(request), request.body),
    );
    app.get(
      `${base}/accounts`,
      {
        schema: {
          tags,
          summary: "The workspace's WhatsApp numbers",
          response: { 200: z.array(WhatsAppAccount) },
        },
      },
      async (request) => accounts.list(requireAuth(request)),
    );
    app.delete(
      `${base}/accounts/:id`,
      {
        schema: {
          tags,
          summary: 'Removes a number (unsubscribes its business account)',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => accounts.remove(requireAuth(request), request.params.id),
    );
    app.post(
      `${base}/accounts/link-bot`,
      {
        schema: {
          tags,
          summary: 'Links a bot to the number',
          body: WhatsAppLinkBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => accounts.link(requireAuth(request), request.body.account_id, request.body.bot_id),
    );
    app.post(
      `${base}/accounts/unlink-bot`,
      {
        schema: {
          tags,
          summary: "Unlinks the number's bot",
          body: WhatsAppUnlinkBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => accounts.unlink(requireAuth(request), request.body.account_id),
    );
    app.post(
      `${base}/conversations/:id/template`,
      {
        schema: {
          tags,
          summary: "An agent's approved template in a conversation (after the 24-hour window)",
          params: IdParams,
          body: ConversationTemplateBody,
          response: { 200: z.object({ message: z.string(), message_id: z.number().int() }) },
        },
      },
      async (request) => conversations.sendTemplate(requireAuth(request), request.params.id, request.body),
    );
  };
}

function templateRoutes({ templates }: WhatsAppServices): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart);
    app.post(
      `${base}/templates`,
      {
        schema: {
          tags,
          summary: 'Creates a template (a draft until submitted)',
          body: TemplateInput,
          response: { 201: WhatsAppTemplate },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await templates.create(requireAuth(request), request.body)),
    );
    app.get(
      `${base}/templates`,
      {
        schema: {
          tags,
          summary: "The number's templates",
          querystring: AccountQuery,
          response: { 200: z.array(WhatsAppTemplate) },
        },
      },
      async (request) => templates.list(requireAuth(request), request.query.account_id),
    );
    app.get(
      `${base}/templates/meta`,
      {
        schema: {
          tags,
          summary: "Meta's templates and their review status",
          querystring: MetaTemplatesQuery,
          response: { 200: MetaTemplateList },
        },
      },
      async (request) => templates.metaList(requireAuth(request), request.query),
    );
    app.post(
      `${base}/templates/media-upload`,
      {
        schema: {
          tags,
          summary: "A header's image, video or document uploaded to Meta; answers its handle",
          response: { 200: MediaUploadResult },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        requireMultipart(request, 'The media must be sent as multipart/form-data');
        const { fields, file } = await formOf(
          request.parts({ limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 10 } }),
          'file',
        );
        const mediaType = z.enum(MEDIA_TYPES).safeParse(fields.media_type);
        if (!mediaType.success) throw badRequest('media_type must be image, video or document');
        if (!file) throw badRequest('Choose a file to upload');
        const accountId = fields.account_id ? IdText().safeParse(fields.account_id) : null;
        if (accountId && !accountId.success) throw badRequest('account_id must be a positive whole number');
        return templates.uploadMedia(auth, {
          accountId: accountId?.data,
          mediaType: mediaType.data,
          bytes: file.bytes,
          fileName: file.name,
        });
      },
    );
    app.get(
      `${base}/templates/:id`,
      { schema: { tags, summary: 'One template', params: IdParams, response: { 200: WhatsAppTemplate } } },
      async (request) => templates.get(requireAuth(request), request.params.id),
    );
    app.put(
      `${base}/templates/:id`,
      {
        schema: {
          tags,
          summary: 'Updates a draft or rejected template',
          params: IdParams,
          body: TemplateUpdate,
          response: { 200: WhatsAppTemplate },
        },
      },
      async (request) => templates.update(requireAuth(request), request.params.id, request.body),
    );
    app.delete(
      `${base}/templates/:id`,
      {
        schema: {
          tags,
          summary: 'Deletes a template (at Meta too once submitted)',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => templates.remove(requireAuth(request), request.params.id),
    );
    app.post(
      `${base}/templates/:id/submit`,
      {
        schema: {
          tags,
          summary: 'Submits the template to Meta for review',
          params: IdParams,
          response: { 200: WhatsAppTemplate },
        },
      },
      async (request) => templates.submit(requireAuth(request), request.params.id),
    );
  };
}

function contactRoutes({ contacts }: WhatsAppServices): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart);
    app.post(
      `${base}/contacts`,
      {
        schema: {
          tags,
          summary: 'Creates a contact (number in E.164)',
          body: ContactInput,
          response: { 201: WithMessage('contact', WhatsAppContact) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await contacts.create(requireAuth(request), request.body)),
    );
    app.get(
      `${base}/contacts`,
      {
        schema: {
          tags,
          summary: 'Contacts, searched and paged',
          querystring: ContactsQuery,
          response: { 200: ContactList },
        },
      },
      async (request) => contacts.list(requireAuth(request), request.query),
    );
    app.get(
      `${base}/contacts/export`,
      { schema: { tags, summary: 'Every contact of the number as CSV', querystring: AccountQuery } },
      async (request, reply) => {
        const { fileName, stream } = await contacts.exportCsv(requireAuth(request), request.query.account_id);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .send(stream);
      },
    );
    app.post(
      `${base}/contacts/import/preview`,
      {
        schema: {
          tags,
          summary: "A CSV's columns, the mapping guessed from them and its first rows",
          response: { 200: ImportPreview },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        requireMultipart(request, 'The file must be sent as multipart/form-data');
        const { fields, stream } = await streamOf(
          request.parts({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10 } }),
        );
        const accountId = IdText().safeParse(
          fields.account_id ?? (request.query as { account_id?: string }).account_id,
        );
        if (!accountId.success) {
          stream.file.resume();
          throw badRequest('account_id must be a positive whole number');
        }
        return contacts.preview(auth, accountId.data, stream.file);
      },
    );
    app.post(
      `${base}/contacts/import`,
      {
        schema: {
          tags,
          summary: 'Imports contacts from CSV (streamed; duplicates merged; rejected rows reported)',
          querystring: ImportQuery.extend({ mapping: z.string().max(2000).optional() }),
          response: { 200: ImportResult },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        requireMultipart(request, 'The file must be sent as multipart/form-data');
        // Refused before a row is stored: rows are committed batch by batch as the file streams in.
        if (Number(request.headers['content-length'] ?? 0) > IMPORT_MAX_BYTES + 64 * 1024)
          throw badRequest(WHATSAPP_TEXTS.importTooLarge);
        const { fields, stream } = await streamOf(
          request.parts({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10 } }),
        );
        let mapping: ContactMapping | null = null;
        const rawMapping = fields.mapping ?? request.query.mapping;
        if (rawMapping) {
          const parsed = ContactMapping.safeParse(safeJson(rawMapping));
          if (!parsed.success) {
            stream.file.resume();
            throw badRequest('mapping must name the phone column, as JSON');
          }
          mapping = parsed.data;
        }
        return contacts.import(auth, request.query.whatsapp_account_id, stream.file, mapping);
      },
    );
    app.patch(
      `${base}/contacts/:id`,
      {
        schema: {
          tags,
          summary: 'Updates a contact; opted_out records or lifts an opt-out',
          params: IdParams,
          body: ContactUpdate,
          response: { 200: WithMessage('contact', WhatsAppContact) },
        },
      },
      async (request) => contacts.update(requireAuth(request), request.params.id, request.body),
    );
    app.delete(
      `${base}/contacts/:id`,
      {
        schema: { tags, summary: 'Deletes a contact', params: IdParams, response: { 200: MessageResponse } },
      },
      async (request) => contacts.remove(requireAuth(request), request.params.id),
    );
  };
}

function campaignRoutes({ campaigns }: WhatsAppServices): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      `${base}/campaigns`,
      {
        schema: {
          tags,
          summary: 'Creates a campaign (a draft until sent)',
          body: CampaignInput,
          response: { 201: WithMessage('campaign', WhatsAppCampaign) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await campaigns.create(requireAuth(request), request.body)),
    );
    app.get(
      `${base}/campaigns`,
      {
        schema: {
          tags,
          summary: "The number's campaigns with their counts",
          querystring: AccountQuery,
          response: { 200: z.array(WhatsAppCampaign) },
        },
      },
      async (request) => campaigns.list(requireAuth(request), request.query.account_id),
    );
    app.delete(
      `${base}/campaigns/:id`,
      {
        schema: {
          tags,
          summary: 'Deletes a campaign that is not sending',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => campaigns.remove(requireAuth(request), request.params.id),
    );
    app.post(
      `${base}/campaigns/:id/send`,
      {
        schema: {
          tags,
          summary: 'Sends the campaign now or at its time',
          params: IdParams,
          response: { 200: WithMessage('campaign', WhatsAppCampaign) },
        },
      },
      async (request) => campaigns.send(requireAuth(request), request.params.id),
    );
    app.post(
      `${base}/campaigns/:id/pause`,
      {
        schema: {
          tags,
          summary: 'Pauses a sending campaign',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => campaigns.pause(requireAuth(request), request.params.id),
    );
    app.post(
      `${base}/campaigns/:id/resume`,
      {
        schema: {
          tags,
          summary: 'Resumes a paused campaign',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => campaigns.resume(requireAuth(request), request.params.id),
    );
    app.get(
      `${base}/campaigns/:id/logs`,
      {
        schema: {
          tags,
          summary: 'One row per recipient',
          params: IdParams,
          querystring: CampaignLogsQuery,
          response: { 200: CampaignLogList },
        },
      },
      async (request) => campaigns.logs(requireAuth(request), request.params.id, request.query),
    );
    app.get(
      `${base}/campaigns/:id/analytics`,
      {
        schema: {
          tags,
          summary: 'Counts, rates, errors and a timeline',
          params: IdParams,
          response: { 200: CampaignAnalytics },
        },
      },
      async (request) => campaigns.analytics(requireAuth(request), request.params.id),
    );
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The text fields before the file, and the file's bytes (within the limit). */
async function formOf(parts: AsyncIterableIterator<Multipart>, fileField: string) {
  const fields: Record<string, string> = {};
  let file: { bytes: Buffer; name: string } | null = null;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== fileField) throw badRequest(`Unexpected file field ${part.fieldname}`);
      const bytes = await part.toBuffer();
      if (part.file.truncated) throw tooLarge();
      file = { bytes, name: uploadedFileName(part.filename, 'upload') };
    }
  } catch (error) {
    throw (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' ? tooLarge() : error;
  }
  return { fields, file };
}

/** The text fields sent before the file, and the file as a stream (a CSV is read as it arrives). */
async function streamOf(parts: AsyncIterableIterator<Multipart>) {
  const fields: Record<string, string> = {};
  for await (const part of parts) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      continue;
    }
    if (part.fieldname !== 'file') throw badRequest(`Unexpected file field ${part.fieldname}`);
    if (part.mimetype && !/csv|text\/plain|application\/vnd\.ms-excel|octet-stream/.test(part.mimetype)) {
      part.file.resume();
      throw badRequest(WHATSAPP_TEXTS.importNotCsv);
    }
    return { fields, stream: part as MultipartFile };
  }
  throw badRequest('Choose a CSV file to import');
}

const tooLarge = () => new AppError('payload_too_large', 'The file is too large');
