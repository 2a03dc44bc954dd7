import fastifyMultipart from '@fastify/multipart';
import {
  CheckGroupNameBody,
  CheckGroupNameResponse,
  DeleteGroupConflict,
  EditFileGroupBody,
  FILE_MESSAGES,
  FileGroup,
  FileGroupsByRoleBody,
  FileGroupUploadResponse,
  GroupUserParams,
  IdParams,
  MessageResponse,
  MoveFileBody,
} from '@parley/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireMultipart } from '../../core/http/multipart.js';
import { type AuthContext, requireAuth } from '../../core/http/request-context.js';
import type { FeatureModule, ModuleDeps } from '../../core/module.js';
import { entitlementsOf } from '../billing/billing.services.js';
import { embedderOf } from '../knowledge/vectors.js';
import { extractorFromConfig } from './extract-pool.js';
import { extractFilesJob } from './files.jobs.js';
import { EXTRACT_JOB, FilesService, GroupInUseError } from './files.service.js';

const tags = ['Files'];
const JOB_ATTEMPTS = 3;

const service = (deps: ModuleDeps) =>
  new FilesService(deps.db, deps.jobs, {
    dataDir: deps.config.DATA_DIR,
    maxFileBytes: deps.config.FILE_MAX_BYTES,
    maxFiles: deps.config.UPLOAD_MAX_FILES,
    limits: entitlementsOf(deps),
  });

/** Multipart parts with the configured limits (files beyond the count or size are refused, 413). */
const partsOf = (request: FastifyRequest, deps: ModuleDeps) => {
  requireMultipart(request, 'The upload must be sent as multipart/form-data');
  return request.parts({
    limits: {
      fileSize: deps.config.FILE_MAX_BYTES,
      files: deps.config.UPLOAD_MAX_FILES,
      fields: 20,
      fieldSize: 16 * 1024,
      parts: deps.config.UPLOAD_MAX_FILES + 20,
    },
  });
};

/** A group bots still use: 409 with the spec's text and the bots' names. */
async function deleteGroup(
  files: FilesService,
  request: FastifyRequest,
  reply: FastifyReply,
  ids: { groupId: number; userId: number },
) {
  try {
    await files.deleteGroup(requireAuth(request), ids.groupId, ids.userId);
    return reply.send({ message: FILE_MESSAGES.groupDeleted });
  } catch (error) {
    if (error instanceof GroupInUseError) {
      return reply.status(409).send({ detail: error.message, associated_bots: error.bots });
    }
    throw error;
  }
}

const groupDeleteSchema = (summary: string) => ({
  tags,
  summary,
  params: GroupUserParams,
  response: { 200: MessageResponse, 409: DeleteGroupConflict },
});

const routes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const files = service(deps);
    await app.register(fastifyMultipart);

    app.post(
      '/file/check-group-name',
      {
        schema: {
          tags,
          summary: 'Whether no file group of the tenant has this name (case-insensitive)',
          body: CheckGroupNameBody,
          response: { 200: CheckGroupNameResponse },
        },
      },
      async (request) => files.checkGroupName(requireAuth(request), request.body),
    );
    app.post(
      '/file/upload-multiple',
      {
        schema: {
          tags,
          summary:
            'Create a file group from uploaded files (multipart: group_name, description?, user_id, files). A name in use: 409',
          response: { 201: FileGroupUploadResponse },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await uploadAllowed(deps, requireAuth(request), () =>
              files.upload(requireAuth(request), partsOf(request, deps)),
            ),
          ),
    );
    app.put(
      '/file/update-file-group',
      {
        schema: {
          tags,
          summary:
            'Add files to a group and/or set its description (multipart: group_id, description?, files)',
          response: { 200: FileGroupUploadResponse },
        },
      },
      async (request) => files.addToGroup(requireAuth(request), partsOf(request, deps)),
    );
    app.get(
      '/file/file-groups/user/:id',
      {
        schema: {
          tags,
          summary: 'File groups a user of the tenant created, with their files',
          params: IdParams,
          response: { 200: z.array(FileGroup) },
        },
      },
      async (request) => files.groupsOfUser(requireAuth(request), request.params.id),
    );
    app.post(
      '/file/file-groups/role',
      {
        schema: {
          tags,
          summary: 'File groups created by the users holding a role',
          body: FileGroupsByRoleBody,
          response: { 200: z.array(FileGroup) },
        },
      },
      async (request) => files.groupsOfRole(requireAuth(request), request.body.role_id),
    );
    app.put(
      '/file/file-groups/:groupId/user/:userId',
      {
        schema: {
          tags,
          summary: "Edit a group's description and remove some of its files",
          params: GroupUserParams,
          body: EditFileGroupBody,
          response: { 200: FileGroup },
        },
      },
      async (request) =>
        files.editGroup(requireAuth(request), request.params.groupId, request.params.userId, request.body),
    );
    app.delete(
      '/file/file-groups/:groupId/user/:userId',
      { schema: groupDeleteSchema('Delete a file group with its files (refused while bots use it)') },
      async (request, reply) => deleteGroup(files, request, reply, request.params),
    );
    app.delete(
      '/file/group/:groupId/user/:userId',
      {
        schema: groupDeleteSchema(
          'Delete a file group (same as DELETE /file/file-groups/{groupId}/user/{userId})',
        ),
      },
      async (request, reply) => deleteGroup(files, request, reply, request.params),
    );
    app.delete(
      '/file/file/:id',
      {
        schema: {
          tags,
          summary: 'Delete one file: its original and its indexed text',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await files.deleteFile(requireAuth(request), request.params.id);
        return { message: FILE_MESSAGES.fileDeleted };
      },
    );
    app.post(
      '/file/file/:id/retrain',
      {
        schema: {
          tags,
          summary:
            'Read and index a file again (one that failed); its current text stays until the new one is live. 409 while it is being trained',
          params: IdParams,
          response: { 200: FileGroupUploadResponse },
        },
      },
      async (request) => files.retrainFile(requireAuth(request), request.params.id),
    );
    app.put(
      '/file/file/:id/group',
      {
        schema: {
          tags,
          summary:
            "Move a file to another group of the workspace; it is indexed again there (the answer is the new group). 409 while it is being trained or when the group has a file of that name; 402 past the plan's characters per bot",
          params: IdParams,
          body: MoveFileBody,
          response: { 200: FileGroupUploadResponse },
        },
      },
      async (request) => files.moveFile(requireAuth(request), request.params.id, request.body),
    );
  };

/** Files: file groups, uploads and their extraction job. */
export const filesModule: FeatureModule = {
  routes,
  jobs: (deps) => {
    const { config } = deps;
    const extractor = extractorFromConfig(config);
    deps.jobs.register(
      EXTRACT_JOB,
      extractFilesJob(
        deps.db,
        config.DATA_DIR,
        JOB_ATTEMPTS,
        extractor,
        embedderOf(deps),
        entitlementsOf(deps),
      ),
      {
        maxAttempts: JOB_ATTEMPTS,
      },
    );
  },
};

/** File uploads are a plan feature: refused before a byte of the upload is read. */
async function uploadAllowed<T>(deps: ModuleDeps, auth: AuthContext, upload: () => Promise<T>): Promise<T> {
  await entitlementsOf(deps).requireFeature(auth.tenantId, 'allows_file_uploads');
  return upload();
}
