import Refresh from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { WHATSAPP_TEXTS, type WhatsAppAccount, type WhatsAppTemplate } from '@parley/contracts';
import { useState } from 'react';
import { errorText } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAbility } from '../../permissions/hooks/useAbility';
import {
  useDeleteTemplateMutation,
  useRefreshTemplatesMutation,
  useSubmitTemplateMutation,
  useTemplatesQuery,
} from '../api';
import { TEMPLATE_STATUS_COLORS } from '../model';
import { TemplateEditor } from './TemplateEditor';

const EDITABLE = ['DRAFT', 'REJECTED'];

/** The number's templates with their review status; create, edit, submit, delete, refresh from Meta. */
export function TemplatesPanel({ account }: { account: WhatsAppAccount }) {
  const ability = useAbility();
  const notify = useNotify();
  const templates = useTemplatesQuery(account.id);
  const [refresh, refreshing] = useRefreshTemplatesMutation();
  const [editing, setEditing] = useState<WhatsAppTemplate | 'new' | null>(null);
  const mayCreate = ability.can('create', 'Create Bot');

  const onRefresh = async () => {
    try {
      await refresh(account.id).unwrap();
      await templates.refetch();
    } catch (error) {
      notify.error(errorText(error as never, WHATSAPP_TEXTS.templatesMetaFailed));
    }
  };

  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }} flexWrap="wrap">
        {mayCreate ? (
          <Button variant="contained" onClick={() => setEditing('new')}>
            New template
          </Button>
        ) : null}
        <Button startIcon={<Refresh />} onClick={onRefresh} disabled={refreshing.isLoading}>
          Refresh from Meta
        </Button>
      </Stack>
      {templates.isLoading ? <CircularProgress aria-label="Loading templates" /> : null}
      {templates.isError ? (
        <Alert severity="error">{errorText(templates.error, WHATSAPP_TEXTS.templatesFetchFailed)}</Alert>
      ) : null}
      {templates.data?.length === 0 ? (
        <Typography color="text.secondary">
          No template yet. Create one and submit it to Meta for review.
        </Typography>
      ) : null}
      {templates.data?.length ? (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Templates">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Language</TableCell>
                <TableCell>Category</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Body</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {templates.data.map((template) => (
                <TemplateRow
                  key={template.id}
                  template={template}
                  accountId={account.id}
                  onEdit={() => setEditing(template)}
                />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      {editing ? (
        <TemplateEditor
          account={account}
          template={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}

function TemplateRow({
  template,
  accountId,
  onEdit,
}: {
  template: WhatsAppTemplate;
  accountId: number;
  onEdit: () => void;
}) {
  const ability = useAbility();
  const notify = useNotify();
  const [submit, submitting] = useSubmitTemplateMutation();
  const [remove, removing] = useDeleteTemplateMutation();
  const [confirming, setConfirming] = useState(false);
  const mayWrite = ability.can('write', 'Create Bot');
  const editable = EDITABLE.includes(template.status);

  const onSubmit = async () => {
    try {
      await submit({ id: template.id, accountId }).unwrap();
      notify.success(WHATSAPP_TEXTS.templateSubmitted);
    } catch (error) {
      notify.error(errorText(error as never, WHATSAPP_TEXTS.templateSubmitFailed));
    }
  };
  const onDelete = async () => {
    try {
      const { message } = await remove({ id: template.id, accountId }).unwrap();
      notify.success(message || WHATSAPP_TEXTS.templateDeleted);
    } catch (error) {
      notify.error(errorText(error as never, WHATSAPP_TEXTS.templateDeleteFailed));
    } finally {
      setConfirming(false);
    }
  };

  return (
    <TableRow aria-label={template.name}>
      <TableCell sx={{ fontWeight: 500 }}>{template.name}</TableCell>
      <TableCell>{template.language}</TableCell>
      <TableCell>{template.category}</TableCell>
      <TableCell>
        <Chip
          size="small"
          label={template.status}
          color={TEMPLATE_STATUS_COLORS[template.status] ?? 'default'}
          data-testid="template-status"
        />
        {template.status === 'REJECTED' && template.rejected_reason ? (
          <Typography variant="caption" color="error" display="block">
            {template.rejected_reason}
          </Typography>
        ) : null}
      </TableCell>
      <TableCell sx={{ maxWidth: 320 }}>
        <Typography variant="body2" noWrap title={template.body}>
          {template.body}
        </Typography>
      </TableCell>
      <TableCell align="right">
        {mayWrite ? (
          <Stack direction="row" spacing={1} justifyContent="flex-end">
            {editable ? (
              <>
                <Button size="small" onClick={onEdit}>
                  Edit
                </Button>
                <Button size="small" variant="outlined" onClick={onSubmit} disabled={submitting.isLoading}>
                  Submit
                </Button>
              </>
            ) : null}
            <Button size="small" color="error" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          </Stack>
        ) : null}
        <ConfirmDialog
          open={confirming}
          title={`Delete ${template.name}?`}
          text="The template is deleted here and, once submitted, at Meta too. Campaigns already sent keep their copy."
          confirmLabel="Delete"
          busy={removing.isLoading}
          onConfirm={onDelete}
          onClose={() => setConfirming(false)}
        />
      </TableCell>
    </TableRow>
  );
}
