import { z } from 'zod';
import { BodyId, Id, IdText, inputText } from './common.js';
import { MESSAGES } from './messages.js';
import { BOTS_SUBJECT, need, type RouteRule } from './rules.js';

/** File groups and uploads (integrations-and-billing.md section 7 Files): each route and what it needs. */
export const FILE_ROUTE_RULES = {
  'POST /file/check-group-name': need(BOTS_SUBJECT, 'read'),
  'POST /file/upload-multiple': need(BOTS_SUBJECT, 'create'),
  'GET /file/file-groups/user/:id': need(BOTS_SUBJECT, 'read'),
  'POST /file/file-groups/role': need(BOTS_SUBJECT, 'read'),
  'DELETE /file/file-groups/:groupId/user/:userId': need(BOTS_SUBJECT, 'write'),
  'DELETE /file/file/:id': need(BOTS_SUBJECT, 'write'),
  'PUT /file/update-file-group': need(BOTS_SUBJECT, 'write'),
  'DELETE /file/group/:groupId/user/:userId': need(BOTS_SUBJECT, 'write'),
  'PUT /file/file-groups/:groupId/user/:userId': need(BOTS_SUBJECT, 'write'),
  'POST /file/file/:id/retrain': need(BOTS_SUBJECT, 'write'),
  'PUT /file/file/:id/group': need(BOTS_SUBJECT, 'write'),
} as const satisfies Record<string, RouteRule>;

/**
 * Kinds of file an upload accepts, judged from the content (text kinds: extension and bytes that
 * read as text). Images (a photo of a menu, a scanned price list) are read by OCR.
 */
export const FILE_KINDS = [
  'pdf',
  'docx',
  'xlsx',
  'txt',
  'markdown',
  'csv',
  'html',
  'png',
  'jpeg',
  'webp',
] as const;
export type FileKind = (typeof FILE_KINDS)[number];
/** For the file picker; the server judges by content whatever the name says. */
export const FILE_ACCEPT = '.pdf,.docx,.xlsx,.txt,.md,.markdown,.csv,.html,.htm,.png,.jpg,.jpeg,.webp';

/** Letters, digits and underscores only (spec section 5). */
export const GroupName = z
  .string({ error: MESSAGES.files.groupNameRequired })
  .trim()
  .min(1, MESSAGES.files.groupNameRequired)
  .max(100, 'Group name must be at most 100 characters')
  // Letters of every script, as a bot's name.
  .regex(/^[\p{L}\p{M}\p{N}_]+$/u, MESSAGES.files.groupNameChars);

/** One uploaded file: `trained` once its text is indexed; `status` failed carries `error`. */
export const FileItem = z.object({
  id: z.number().int(),
  filename: z.string(),
  /** Characters of extracted text; null until extracted. */
  character_count: z.number().int().nullable(),
  /** Bytes of the original. */
  size: z.number().int(),
  trained: z.boolean(),
  status: z.enum(['pending', 'trained', 'failed']),
  error: z.string().nullable(),
  /** The type judged from the content. */
  mime_type: z.string(),
});
export type FileItem = z.infer<typeof FileItem>;

export const FileGroup = z.object({
  id: z.number().int(),
  group_name: z.string(),
  description: z.string().nullable(),
  /** Who created the group (null when that user was removed). */
  user_id: z.number().int().nullable(),
  tenant_id: z.number().int(),
  /** The knowledge collection the group's chunks belong to (`file_group_<id>`). */
  collection_name: z.string(),
  files: z.array(FileItem),
});
export type FileGroup = z.infer<typeof FileGroup>;

/** Upload and add-files answers: the group, the server's message, and the extraction job to follow. */
export const FileGroupUploadResponse = FileGroup.extend({ message: z.string(), job_id: z.string() });
export type FileGroupUploadResponse = z.infer<typeof FileGroupUploadResponse>;

export const CheckGroupNameBody = z.object({ group_name: GroupName, tenant_id: BodyId('Tenant') });
export type CheckGroupNameBody = z.infer<typeof CheckGroupNameBody>;
export const CheckGroupNameResponse = z.object({ isUnique: z.boolean() });
export type CheckGroupNameResponse = z.infer<typeof CheckGroupNameResponse>;

/** A user id sent as a multipart field: at least 1, else the spec's text. */
const UserIdField = z
  .string({ error: MESSAGES.files.userMissing })
  .trim()
  .pipe(IdText(MESSAGES.files.userMissing));
const GroupIdField = z
  .string({ error: 'File group is required' })
  .trim()
  .pipe(IdText('File group is required'));
const DescriptionField = inputText().trim().max(2000, 'Description must be at most 2000 characters');

/** Text fields of `POST /file/upload-multiple` (multipart; the files come as `files`). */
export const UploadFields = z.object({
  group_name: GroupName,
  description: DescriptionField.optional(),
  user_id: UserIdField,
});
export type UploadFields = z.infer<typeof UploadFields>;

/** Text fields of `PUT /file/update-file-group` (multipart): adds `files` to a group, edits its description. */
export const UpdateGroupFields = z.object({
  group_id: GroupIdField,
  description: DescriptionField.optional(),
});
export type UpdateGroupFields = z.infer<typeof UpdateGroupFields>;

/** `POST /file/file-groups/role`: the groups created by users holding this role. */
export const FileGroupsByRoleBody = z.object({ role_id: BodyId('Role') });
export type FileGroupsByRoleBody = z.infer<typeof FileGroupsByRoleBody>;

export const GroupUserParams = z.object({ groupId: Id, userId: Id });

/** `PUT /file/file-groups/{groupId}/user/{userId}`: new description, and files of the group to remove. */
export const EditFileGroupBody = z.object({
  description: DescriptionField.nullable().optional(),
  deleted_files: z.array(BodyId('File')).max(1000).default([]),
});
export type EditFileGroupBody = z.input<typeof EditFileGroupBody>;

/** `PUT /file/file/{id}/group`: the group of the tenant the file moves to. */
export const MoveFileBody = z.object({ group_id: BodyId('File group') });
export type MoveFileBody = z.infer<typeof MoveFileBody>;

/** A 409 when bots still use the group: the spec's text with their names, and the names as a list. */
export const DeleteGroupConflict = z.object({ detail: z.string(), associated_bots: z.array(z.string()) });
export type DeleteGroupConflict = z.infer<typeof DeleteGroupConflict>;

export const FILE_MESSAGES = {
  uploaded: (n: number) => `${n} file${n === 1 ? '' : 's'} uploaded successfully`,
  groupUpdated: 'File group updated successfully',
  groupDeleted: 'File group deleted successfully',
  fileDeleted: 'File deleted successfully',
  /** A group keeps one file per name: a file added under a name the group holds replaces it once trained. */
  sameNameTwice: (name: string) =>
    `Two of the files are named ${name}: a group keeps one file per name, so rename one of them`,
  empty: (name: string) => `${name} is empty: there is nothing in it to learn from`,
  retraining: (name: string) => `Training ${name} again`,
  stillTraining: (name: string) => `${name} is still being trained: try again once it is done`,
  moved: (name: string, group: string) => `${name} moved to ${group}`,
  alreadyInGroup: (name: string, group: string) => `${name} is already in ${group}`,
  nameInGroup: (name: string, group: string) =>
    `${group} already has a file named ${name}: delete or rename one of them first`,
} as const;
