import type {
  CheckGroupNameBody,
  CheckGroupNameResponse,
  EditFileGroupBody,
  FileGroup,
  FileGroupUploadResponse,
  MessageResponse,
  MoveFileBody,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const withTags = api.enhanceEndpoints({ addTagTypes: ['FileGroups'] });

/** File groups of the signed-in user. Uploads go through `upload.ts` (XMLHttpRequest, for progress). */
export const filesApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    fileGroups: build.query<FileGroup[], number>({
      query: (userId) => `/file/file-groups/user/${userId}`,
      providesTags: ['FileGroups'],
    }),
    checkGroupName: build.mutation<CheckGroupNameResponse, CheckGroupNameBody>({
      query: (body) => ({ url: '/file/check-group-name', method: 'POST', body }),
    }),
    editFileGroup: build.mutation<FileGroup, { groupId: number; userId: number; body: EditFileGroupBody }>({
      query: ({ groupId, userId, body }) => ({
        url: `/file/file-groups/${groupId}/user/${userId}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['FileGroups'],
    }),
    deleteFile: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/file/file/${id}`, method: 'DELETE' }),
      invalidatesTags: ['FileGroups'],
    }),
    /** Reads a file again (one that failed); silent: the page shows the server's message or detail. */
    retrainFile: build.mutation<FileGroupUploadResponse, number>({
      query: (id) => ({ url: `/file/file/${id}/retrain`, method: 'POST' }),
      extraOptions: { silent: true },
      invalidatesTags: ['FileGroups'],
    }),
    /** Moves a file to another group; silent: the dialog shows why it cannot move. */
    moveFile: build.mutation<FileGroupUploadResponse, { fileId: number; body: MoveFileBody }>({
      query: ({ fileId, body }) => ({ url: `/file/file/${fileId}/group`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['FileGroups'],
    }),
    /** Silent: the page shows the spec's text with the bots that still use the group. */
    deleteFileGroup: build.mutation<MessageResponse, { groupId: number; userId: number }>({
      query: ({ groupId, userId }) => ({
        url: `/file/file-groups/${groupId}/user/${userId}`,
        method: 'DELETE',
      }),
      extraOptions: { silent: true },
      invalidatesTags: ['FileGroups'],
    }),
  }),
});

export const {
  useFileGroupsQuery,
  useCheckGroupNameMutation,
  useEditFileGroupMutation,
  useDeleteFileMutation,
  useDeleteFileGroupMutation,
  useRetrainFileMutation,
  useMoveFileMutation,
} = filesApi;

export const invalidateFileGroups = () => filesApi.util.invalidateTags(['FileGroups']);
