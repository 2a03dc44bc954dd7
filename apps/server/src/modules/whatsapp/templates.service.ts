import {
  type MetaTemplateList,
  type TemplateInput,
  type TemplateUpdate,
  WHATSAPP_TEXTS,
  type WhatsAppTemplate,
} from '@parley/contracts';
import { and, eq, isNotNull } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '../../core/db/database.js';
import { isUniqueViolation } from '../../core/db/errors.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import { cloudFailure, type WhatsAppAccountRow, type WhatsAppAccountsService } from './accounts.service.js';
import type { CloudClient, CloudTemplate } from './cloud.client.js';
import { componentsOf, type TemplateRow, templateProblems, variablesOf } from './template-rules.js';
import { whatsappAccounts, whatsappTemplates } from './whatsapp.schema.js';

/** Meta's list is read again when older than this, or when the caller forces it. */
const META_LIST_TTL_MS = 60_000;
/** What Meta's upload takes for template headers, by media type: content types and size. */
const MEDIA_RULES = {
  image: { types: ['image/jpeg', 'image/png'], maxBytes: 5 * 1024 * 1024 },
  video: { types: ['video/mp4', 'video/3gpp'], maxBytes: 16 * 1024 * 1024 },
  document: { types: ['application/pdf'], maxBytes: 20 * 1024 * 1024 },
} as const;
/** Only a template not under review (or turned down) may change here. */
const EDITABLE = new Set(['DRAFT', 'REJECTED']);

export class TemplatesService {
  constructor(
    private readonly deps: ModuleDeps,
    private readonly cloud: CloudClient,
    private readonly accounts: WhatsAppAccountsService,
  ) {}

  private get db(): Db {
    return this.deps.db;
  }

  async create(auth: AuthContext, input: TemplateInput): Promise<WhatsAppTemplate> {
    const account = await this.accounts.require(auth, input.account_id);
    refuseProblems(input);
    const [row] = await this.db
      .insert(whatsappTemplates)
      .values({ tenantId: auth.tenantId, accountId: account.id, ...columnsOf(input) })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict(WHATSAPP_TEXTS.templateNameTaken);
    return viewOf(row);
  }

  async list(auth: AuthContext, accountId: number): Promise<WhatsAppTemplate[]> {
    const account = await this.accounts.require(auth, accountId);
    const rows = await this.db
      .select()
      .from(whatsappTemplates)
      .where(eq(whatsappTemplates.accountId, account.id))
      .orderBy(whatsappTemplates.id);
    return rows.map(viewOf);
  }

  async get(auth: AuthContext, id: number): Promise<WhatsAppTemplate> {
    return viewOf(await this.requireRow(auth, id));
  }

  async update(auth: AuthContext, id: number, input: TemplateUpdate): Promise<WhatsAppTemplate> {
    const row = await this.requireRow(auth, id);
    if (!EDITABLE.has(row.status)) throw conflict(WHATSAPP_TEXTS.templateLocked);
    const merged = { ...inputOf(row), ...stripUndefined(input) };
    refuseProblems(merged);
    const [updated] = await this.db
      .update(whatsappTemplates)
      .set({ ...columnsOf(merged), status: 'DRAFT', rejectedReason: null, updatedAt: new Date() })
      .where(eq(whatsappTemplates.id, row.id))
      .returning()
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? conflict(WHATSAPP_TEXTS.templateNameTaken) : error;
      });
    return viewOf(updated!);
  }

  /** Deleted here and, once submitted, at Meta too (a template Meta no longer has is deleted all the same). */
  async remove(auth: AuthContext, id: number): Promise<{ message: string }> {
    const row = await this.requireRow(auth, id);
    if (row.metaTemplateId) {
      const account = await this.accounts.require(auth, row.accountId);
      try {
        await this.cloud.deleteTemplate(
          account.wabaId,
          this.accounts.tokenOf(account),
          row.name,
          row.metaTemplateId,
        );
      } catch (error) {
        if (!(error instanceof Error && /does not exist|not found/i.test(error.message)))
          throw cloudFailure(error, WHATSAPP_TEXTS.templateDeleteFailed);
      }
    }
    await this.db.delete(whatsappTemplates).where(eq(whatsappTemplates.id, row.id));
    return { message: WHATSAPP_TEXTS.templateDeleted };
  }

  /** Sends the template to Meta for review; its status then follows the review webhook. */
  async submit(auth: AuthContext, id: number): Promise<WhatsAppTemplate> {
    const row = await this.requireRow(auth, id);
    if (!EDITABLE.has(row.status)) throw conflict(WHATSAPP_TEXTS.templateLocked);
    const input = inputOf(row);
    refuseProblems(input);
    const account = await this.accounts.require(auth, row.accountId);
    let created: { id: string; status?: string };
    try {
      created = await this.cloud.createTemplate(account.wabaId, this.accounts.tokenOf(account), {
        name: row.name,
        language: row.language,
        category: row.category,
        components: componentsOf(input),
      });
    } catch (error) {
      throw cloudFailure(error, WHATSAPP_TEXTS.templateSubmitFailed);
    }
    const [updated] = await this.db
      .update(whatsappTemplates)
      .set({
        metaTemplateId: created.id,
        status: (created.status ?? 'PENDING').toUpperCase(),
        rejectedReason: null,
        updatedAt: new Date(),
      })
      .where(eq(whatsappTemplates.id, row.id))
      .returning();
    return viewOf(updated!);
  }

  /**
   * Meta's templates of the number's business account with their review status. Read from Meta
   * when forced or older than a minute; templates made in WhatsApp Manager are kept here too.
   */
  async metaList(
    auth: AuthContext,
    query: { account_id: number; status?: string; limit: number; force_refresh: boolean },
  ): Promise<MetaTemplateList> {
    let account = await this.accounts.require(auth, query.account_id);
    const stale =
      !account.templatesSyncedAt || Date.now() - account.templatesSyncedAt.getTime() > META_LIST_TTL_MS;
    if (query.force_refresh || stale) account = await this.syncFromMeta(account, query.limit);
    const conditions = [
      eq(whatsappTemplates.accountId, account.id),
      isNotNull(whatsappTemplates.metaTemplateId),
    ];
    if (query.status) conditions.push(eq(whatsappTemplates.status, query.status));
    const rows = await this.db
      .select()
      .from(whatsappTemplates)
      .where(and(...conditions))
      .orderBy(whatsappTemplates.name)
      .limit(query.limit);
    return {
      templates: rows.map((row) => ({
        id: row.metaTemplateId!,
        name: row.name,
        language: row.language,
        category: row.category,
        status: row.status,
        rejected_reason: row.rejectedReason,
        components: componentsOf(inputOf(row)),
      })),
      synced_at: (account.templatesSyncedAt ?? new Date()).toISOString(),
    };
  }

  /** A header image, video or document through Meta's resumable upload; answers the handle. */
  async uploadMedia(
    auth: AuthContext,
    input: { accountId?: number; mediaType: keyof typeof MEDIA_RULES; bytes: Buffer; fileName: string },
  ): Promise<{ handle: string; media_type: keyof typeof MEDIA_RULES }> {
    const rules = MEDIA_RULES[input.mediaType];
    if (input.bytes.length === 0) throw badRequest('The file is empty');
    if (input.bytes.length > rules.maxBytes)
      throw badRequest(`A ${input.mediaType} must be at most ${rules.maxBytes / 1024 / 1024} MB`);
    const sniffed = await fileTypeFromBuffer(input.bytes);
    if (!sniffed || !(rules.types as readonly string[]).includes(sniffed.mime))
      throw badRequest(`A ${input.mediaType} must be one of: ${rules.types.join(', ')}`);
    const account = input.accountId
      ? await this.accounts.require(auth, input.accountId)
      : await this.firstAccount(auth);
    try {
      const handle = await this.cloud.upload(
        this.accounts.tokenOf(account),
        input.bytes,
        sniffed.mime,
        input.fileName,
      );
      return { handle, media_type: input.mediaType };
    } catch (error) {
      throw cloudFailure(error, WHATSAPP_TEXTS.mediaUploadFailed);
    }
  }

  async requireRow(auth: AuthContext, id: number): Promise<TemplateRow> {
    const [row] = await this.db
      .select()
      .from(whatsappTemplates)
      .where(and(eq(whatsappTemplates.id, id), eq(whatsappTemplates.tenantId, auth.tenantId)));
    if (!row) throw notFound(WHATSAPP_TEXTS.templateNotFound);
    return row;
  }

  private async firstAccount(auth: AuthContext): Promise<WhatsAppAccountRow> {
    const [row] = await this.db
      .select()
      .from(whatsappAccounts)
      .where(eq(whatsappAccounts.tenantId, auth.tenantId))
      .orderBy(whatsappAccounts.id)
      .limit(1);
    if (!row) throw notFound(WHATSAPP_TEXTS.accountNotFound);
    return row;
  }

  private async syncFromMeta(account: WhatsAppAccountRow, limit: number): Promise<WhatsAppAccountRow> {
    let found: CloudTemplate[];
    try {
      found = await this.cloud.templates(
        account.wabaId,
        this.accounts.tokenOf(account),
        Math.max(limit, 100),
      );
    } catch (error) {
      throw cloudFailure(error, WHATSAPP_TEXTS.templatesMetaFailed);
    }
    const now = new Date();
    return this.db.transaction(async (tx) => {
      for (const template of found) {
        const status = template.status.toUpperCase();
        const known = {
          metaTemplateId: template.id,
          status,
          rejectedReason: status === 'REJECTED' ? (template.rejected_reason ?? 'Rejected by Meta') : null,
          category: template.category,
          updatedAt: now,
        };
        await tx
          .insert(whatsappTemplates)
          .values({
            tenantId: account.tenantId,
            accountId: account.id,
            name: template.name,
            language: template.language,
            ...fieldsOfComponents(template.components ?? []),
            ...known,
          })
          .onConflictDoUpdate({
            target: [whatsappTemplates.accountId, whatsappTemplates.name, whatsappTemplates.language],
            set: known,
          });
      }
      const [updated] = await tx
        .update(whatsappAccounts)
        .set({ templatesSyncedAt: now })
        .where(eq(whatsappAccounts.id, account.id))
        .returning();
      return updated!;
    });
  }
}

function refuseProblems(input: Parameters<typeof templateProblems>[0]): void {
  const problems = templateProblems(input);
  if (problems.length) throw badRequest(problems.join('. '));
}

function columnsOf(input: Omit<TemplateInput, 'account_id'>) {
  return {
    name: input.name,
    language: input.language,
    category: input.category,
    header: input.header ?? null,
    body: input.body,
    bodyExamples: input.body_examples,
    footer: input.footer ?? null,
    buttons: input.buttons as Record<string, unknown>[],
  };
}

function inputOf(row: TemplateRow): Omit<TemplateInput, 'account_id'> {
  return {
    name: row.name,
    language: row.language,
    category: row.category as TemplateInput['category'],
    header: (row.header as TemplateInput['header']) ?? null,
    body: row.body,
    body_examples: row.bodyExamples,
    footer: row.footer,
    buttons: row.buttons as TemplateInput['buttons'],
  };
}

/** A template Meta lists (made in WhatsApp Manager, say) as Parley's columns. */
function fieldsOfComponents(components: Record<string, unknown>[]) {
  const of = (type: string) => components.find((c) => String(c.type).toUpperCase() === type);
  const header = of('HEADER') as { format?: string; text?: string } | undefined;
  const body = of('BODY') as { text?: string; example?: { body_text?: string[][] } } | undefined;
  return {
    header: header
      ? { format: String(header.format ?? 'TEXT'), ...(header.text ? { text: header.text } : {}) }
      : null,
    body: body?.text ?? '',
    bodyExamples: body?.example?.body_text?.[0] ?? [],
    footer: ((of('FOOTER') as { text?: string } | undefined)?.text as string | undefined) ?? null,
    buttons: ((of('BUTTONS') as { buttons?: Record<string, unknown>[] } | undefined)?.buttons ??
      []) as Record<string, unknown>[],
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function viewOf(row: TemplateRow): WhatsAppTemplate {
  return {
    id: row.id,
    account_id: row.accountId,
    name: row.name,
    language: row.language,
    category: row.category,
    header: row.header ?? null,
    body: row.body,
    body_examples: row.bodyExamples,
    footer: row.footer,
    buttons: row.buttons,
    status: row.status,
    meta_template_id: row.metaTemplateId,
    rejected_reason: row.rejectedReason,
    variable_count: new Set(variablesOf(row.body)).size,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
