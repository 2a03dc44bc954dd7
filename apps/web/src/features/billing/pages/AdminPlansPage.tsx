import Add from '@mui/icons-material/Add';
import Edit from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { Addon, Plan } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useAdminAddonsQuery, useAdminPlansQuery, useSaveAddonMutation, useSavePlanMutation } from '../api';
import { AddonDialog } from '../components/AddonDialog';
import { PlanDialog } from '../components/PlanDialog';
import { Section } from '../components/Section';
import {
  ADDON_KIND_NAMES,
  addonToInput,
  formatCount,
  formatMoney,
  planToInput,
  retentionText,
  sortPlans,
} from '../model';

/**
 * /admin/plans, for platform admins: every plan and add-on, offered or not, created and edited in
 * dialogs; the default and active switches change a plan at once.
 */
export function AdminPlansPage() {
  const ability = useAbility();
  const canWrite = ability.can('write', 'Admin');
  const notify = useNotify();
  const plans = useAdminPlansQuery();
  const addons = useAdminAddonsQuery();
  const [savePlan] = useSavePlanMutation();
  const [saveAddon] = useSaveAddonMutation();
  const [editingPlan, setEditingPlan] = useState<Plan | 'new' | null>(null);
  const [editingAddon, setEditingAddon] = useState<Addon | 'new' | null>(null);

  const flipPlan = async (plan: Plan, key: 'is_default' | 'is_active', value: boolean) => {
    const result = await savePlan({ id: plan.id, body: { ...planToInput(plan), [key]: value } });
    if ('error' in result) notify.error(serverDetail(result.error) ?? 'The plan could not be saved.');
  };
  const flipAddon = async (addon: Addon, value: boolean) => {
    const result = await saveAddon({ id: addon.id, body: { ...addonToInput(addon), is_active: value } });
    if ('error' in result) notify.error(serverDetail(result.error) ?? 'The add-on could not be saved.');
  };

  return (
    <>
      <PageHeader title="Plans and add-ons" subtitle="What workspaces can buy, and what each plan allows." />

      <Section
        title="Plans"
        actions={
          canWrite ? (
            <Button startIcon={<Add />} variant="contained" onClick={() => setEditingPlan('new')}>
              New plan
            </Button>
          ) : null
        }
      >
        {plans.isLoading ? <CircularProgress aria-label="Loading plans" /> : null}
        {plans.isError ? <Alert severity="error">The plans could not be loaded.</Alert> : null}
        {plans.data ? (
          <TableContainer>
            <Table size="small" aria-label="Plans">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell align="right">Monthly</TableCell>
                  <TableCell align="right">Yearly</TableCell>
                  <TableCell align="right">Bots</TableCell>
                  <TableCell align="right">Team</TableCell>
                  <TableCell align="right">Messages</TableCell>
                  <TableCell align="right">Characters per bot</TableCell>
                  <TableCell>History</TableCell>
                  <TableCell>Default</TableCell>
                  <TableCell>Active</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {sortPlans(plans.data).map((plan) => (
                  <TableRow key={plan.id}>
                    <TableCell component="th" scope="row">
                      {plan.name}
                    </TableCell>
                    <TableCell align="right">{formatMoney(plan.price_monthly, plan.currency)}</TableCell>
                    <TableCell align="right">{formatMoney(plan.price_yearly, plan.currency)}</TableCell>
                    <TableCell align="right">{formatCount(plan.max_chatbots)}</TableCell>
                    <TableCell align="right">{formatCount(plan.max_team_members)}</TableCell>
                    <TableCell align="right">{formatCount(plan.messages_credits_per_month)}</TableCell>
                    <TableCell align="right">{formatCount(plan.trained_characters_per_chatbot)}</TableCell>
                    <TableCell>{retentionText(plan.chat_history_retention)}</TableCell>
                    <SwitchCell
                      label={`Default plan: ${plan.name}`}
                      checked={plan.is_default}
                      disabled={!canWrite || plan.is_default}
                      onChange={(value) => void flipPlan(plan, 'is_default', value)}
                    />
                    <SwitchCell
                      label={`Active: ${plan.name}`}
                      checked={plan.is_active}
                      disabled={!canWrite}
                      onChange={(value) => void flipPlan(plan, 'is_active', value)}
                    />
                    <EditCell name={plan.name} canWrite={canWrite} onEdit={() => setEditingPlan(plan)} />
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ) : null}
      </Section>

      <Section
        title="Add-ons"
        actions={
          canWrite ? (
            <Button startIcon={<Add />} variant="contained" onClick={() => setEditingAddon('new')}>
              New add-on
            </Button>
          ) : null
        }
      >
        {addons.isLoading ? <CircularProgress aria-label="Loading add-ons" /> : null}
        {addons.isError ? <Alert severity="error">The add-ons could not be loaded.</Alert> : null}
        {addons.data ? (
          <TableContainer>
            <Table size="small" aria-label="Add-ons">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>Kind</TableCell>
                  <TableCell align="right">Units per quantity</TableCell>
                  <TableCell align="right">Monthly price</TableCell>
                  <TableCell>Active</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {addons.data.map((addon) => (
                  <TableRow key={addon.id}>
                    <TableCell component="th" scope="row">
                      {addon.name}
                    </TableCell>
                    <TableCell>{ADDON_KIND_NAMES[addon.kind]}</TableCell>
                    <TableCell align="right">{formatCount(addon.units)}</TableCell>
                    <TableCell align="right">{formatMoney(addon.price_monthly, addon.currency)}</TableCell>
                    <SwitchCell
                      label={`Active: ${addon.name}`}
                      checked={addon.is_active}
                      disabled={!canWrite}
                      onChange={(value) => void flipAddon(addon, value)}
                    />
                    <EditCell name={addon.name} canWrite={canWrite} onEdit={() => setEditingAddon(addon)} />
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ) : null}
      </Section>

      {editingPlan ? (
        <PlanDialog plan={editingPlan === 'new' ? null : editingPlan} onClose={() => setEditingPlan(null)} />
      ) : null}
      {editingAddon ? (
        <AddonDialog
          addon={editingAddon === 'new' ? null : editingAddon}
          onClose={() => setEditingAddon(null)}
        />
      ) : null}
    </>
  );
}

type SwitchCellProps = {
  /** Names the row as well: the column header alone would give every switch the same name. */
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
};

function SwitchCell({ label, checked, disabled, onChange }: SwitchCellProps) {
  return (
    <TableCell>
      <Switch
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        slotProps={{ input: { 'aria-label': label } }}
      />
    </TableCell>
  );
}

function EditCell({ name, canWrite, onEdit }: { name: string; canWrite: boolean; onEdit: () => void }) {
  return (
    <TableCell align="right">
      {canWrite ? (
        <IconButton aria-label={`Edit ${name}`} onClick={onEdit}>
          <Edit fontSize="small" />
        </IconButton>
      ) : null}
    </TableCell>
  );
}
