import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import { useAppDispatch } from '../../../app/store';
import { PageHeader } from '../../../shared/components/PageHeader';
import { SettingsForm } from '../components/SettingsForm';
import { settingsReset } from '../settings-slice';

/** /settings: the layout settings, the same as the theme customizer's. */
export function SettingsPage() {
  const dispatch = useAppDispatch();
  return (
    <>
      <PageHeader
        title="Settings"
        subtitle="Mode, skin, colour and menu are remembered on this device; app bar, footer and layout reset on reload."
        actions={
          <Button variant="outlined" onClick={() => dispatch(settingsReset())}>
            Reset to defaults
          </Button>
        }
      />
      <Card>
        <CardContent>
          <SettingsForm />
        </CardContent>
      </Card>
    </>
  );
}
