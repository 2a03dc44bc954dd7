import Add from '@mui/icons-material/Add';
import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type Feature, MESSAGES } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PanelHeader } from '../../../shared/components/PanelHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { Can } from '../../permissions/components/Can';
import { useArchiveFeatureMutation, useDeleteFeatureMutation } from '../api';
import { CreateFeatureDialog } from './CreateFeatureDialog';

type Props = { features: Feature[] };

/** Features roles can be granted: the platform's (fixed) and the tenant's own (deletable, archivable). */
export function FeaturesPanel({ features }: Props) {
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Feature | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <Card>
      <PanelHeader title="Features">
        <Can I="create" a="Roles">
          <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
            Create feature
          </Button>
        </Can>
      </PanelHeader>
      {refusal ? (
        <Alert severity="warning" sx={{ mx: 2, mb: 2 }} onClose={() => setRefusal(null)}>
          {refusal}
        </Alert>
      ) : null}
      <TableContainer>
        <Table size="small" aria-label="Features">
          <TableHead>
            <TableRow>
              <TableCell>Feature</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {features.map((feature) => (
              <FeatureRow key={feature.id} feature={feature} onDelete={setDeleting} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <CreateFeatureDialog open={creating} onClose={() => setCreating(false)} />
      <DeleteFeatureDialog feature={deleting} onRefused={setRefusal} onClose={() => setDeleting(null)} />
    </Card>
  );
}

function FeatureRow({ feature, onDelete }: { feature: Feature; onDelete: (f: Feature) => void }) {
  const [archive, { isLoading }] = useArchiveFeatureMutation();
  const platform = feature.tenant_id === null;
  const reason = platform ? MESSAGES.features.platformFeature : '';
  return (
    <TableRow data-testid={`feature-row-${feature.name}`}>
      <TableCell>
        <Typography variant="body2" fontWeight={600}>
          {feature.name}
        </Typography>
        {feature.description ? (
          <Typography variant="caption" color="text.secondary">
            {feature.description}
          </Typography>
        ) : null}
      </TableCell>
      <TableCell>
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
          <Chip size="small" label={platform ? 'Platform' : 'Custom'} variant="outlined" />
          {feature.is_archived ? <Chip size="small" label="Archived" color="warning" /> : null}
        </Box>
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <Can I="write" a="Roles">
          <Tooltip title={reason || (feature.is_archived ? 'Unarchive' : 'Archive')}>
            <span>
              <IconButton
                aria-label={`${feature.is_archived ? 'Unarchive' : 'Archive'} ${feature.name}`}
                disabled={platform || isLoading}
                onClick={() => archive({ id: feature.id, is_archived: !feature.is_archived })}
              >
                {feature.is_archived ? <UnarchiveOutlined /> : <ArchiveOutlined />}
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title={reason || 'Delete'}>
            <span>
              <IconButton
                aria-label={`Delete ${feature.name}`}
                disabled={platform}
                onClick={() => onDelete(feature)}
              >
                <DeleteOutline />
              </IconButton>
            </span>
          </Tooltip>
        </Can>
      </TableCell>
    </TableRow>
  );
}

type DeleteProps = { feature: Feature | null; onRefused: (text: string) => void; onClose: () => void };

/** Deleting a feature still granted to roles is refused by the server; its text is shown as is. */
function DeleteFeatureDialog({ feature, onRefused, onClose }: DeleteProps) {
  const [remove, { isLoading }] = useDeleteFeatureMutation();
  const notify = useNotify();
  const confirm = async () => {
    if (!feature) return;
    const result = await remove(feature.id);
    if ('data' in result && result.data) notify.success(result.data.message);
    else onRefused(serverDetail(result.error) ?? MESSAGES.users.unexpected);
    onClose();
  };
  return (
    <ConfirmDialog
      open={Boolean(feature)}
      title="Delete feature"
      text={feature ? `Delete the feature ${feature.name}?` : ''}
      confirmLabel="Delete"
      busy={isLoading}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
