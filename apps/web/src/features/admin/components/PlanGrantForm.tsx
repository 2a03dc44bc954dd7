import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AdminWorkspaceDetail, PlanLimits } from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAdminPlansQuery } from '../../billing/api';
import { useEndGrantMutation, useGrantPlanMutation } from '../api';
import { formatDate } from '../format';

const LIMIT_FIELDS: Array<{ key: keyof PlanLimits; label: string }> = [
  { key: 'max_chatbots', label: 'Bots' },
  { key: 'max_team_members', label: 'Team members' },
  { key: 'messages_credits_per_month', label: 'Messages a month' },
  { key: 'trained_characters_per_chatbot', label: 'Characters per bot' },
];

/**
 * A platform admin puts the workspace on any plan without payment (complimentary), until a date or
 * for good, optionally with custom limits; or ends the plan given. Only with plans on.
 */
export function PlanGrantForm({
  workspace,
  canWrite,
}: {
  workspace: AdminWorkspaceDetail;
  canWrite: boolean;
}) {
  const plans = useAdminPlansQuery(undefined, { skip: workspace.unlimited });
  const [grant, granting] = useGrantPlanMutation();
  const [end, ending] = useEndGrantMutation();
  const notify = useNotify();
  const [planId, setPlanId] = useState('');
  const [until, setUntil] = useState('');
  const [limits, setLimits] = useState<Partial<Record<keyof PlanLimits, string>>>({});
  const [error, setError] = useState<string | null>(null);

  if (workspace.unlimited) {
    return (
      <Typography variant="body2" color="text.secondary">
        Plans are off on this install (PLAN_LIMITS=off): nothing is limited, so there is no plan to give.
      </Typography>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const custom = Object.fromEntries(
      Object.entries(limits)
        .filter(([, v]) => v !== undefined && v.trim() !== '')
        .map(([k, v]) => [k, Number(v)]),
    );
    try {
      const result = await grant({
        id: workspace.id,
        body: {
          plan_id: Number(planId),
          // The end of the chosen day, in the admin's time zone.
          ends_at: until ? new Date(`${until}T23:59:59`).toISOString() : null,
          limits: Object.keys(custom).length > 0 ? custom : null,
        },
      }).unwrap();
      notify.success(result.message);
      setPlanId('');
      setUntil('');
      setLimits({});
    } catch (failure) {
      setError(serverDetail(failure) ?? 'The plan could not be given.');
    }
  };

  const onEnd = async () => {
    try {
      notify.success((await end(workspace.id).unwrap()).message);
    } catch (failure) {
      setError(serverDetail(failure) ?? 'The plan could not be ended.');
    }
  };

  const given = workspace.complimentary;
  return (
    <Box component="form" onSubmit={onSubmit} noValidate aria-label="Give a plan">
      {given ? (
        <Alert
          severity="success"
          sx={{ mb: 2 }}
          action={
            canWrite ? (
              <Button color="inherit" size="small" onClick={onEnd} disabled={ending.isLoading}>
                End it
              </Button>
            ) : undefined
          }
        >
          {workspace.plan.name} is given by a platform admin
          {given.ends_at ? ` until ${formatDate(given.ends_at)}` : ', with no end date'}
          {given.custom_limits ? ', with custom limits' : ''}.
        </Alert>
      ) : null}
      {canWrite ? (
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              select
              label="Plan"
              value={planId}
              onChange={(e) => setPlanId(e.target.value)}
              sx={{ minWidth: 200 }}
              size="small"
            >
              {(plans.data ?? []).map((plan) => (
                <MenuItem key={plan.id} value={String(plan.id)}>
                  {plan.name}
                  {plan.is_active ? '' : ' (not offered)'}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Until (optional)"
              type="date"
              value={until}
              onChange={(e) => setUntil(e.target.value)}
              size="small"
              slotProps={{ inputLabel: { shrink: true } }}
              helperText="Empty: no end date"
            />
          </Stack>
          <Typography variant="caption" color="text.secondary">
            Custom limits (optional): each one given replaces the plan's.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            {LIMIT_FIELDS.map((field) => (
              <TextField
                key={field.key}
                label={field.label}
                type="number"
                size="small"
                value={limits[field.key] ?? ''}
                onChange={(e) => setLimits((l) => ({ ...l, [field.key]: e.target.value }))}
                slotProps={{ htmlInput: { min: 0 } }}
              />
            ))}
          </Stack>
          {error ? <Alert severity="error">{error}</Alert> : null}
          <Box>
            <Button type="submit" variant="contained" disabled={!planId || granting.isLoading}>
              Give plan
            </Button>
          </Box>
        </Stack>
      ) : null}
    </Box>
  );
}
