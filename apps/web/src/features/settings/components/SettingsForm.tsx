import Check from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import type { Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { SETTING_CHOICES, type Settings, THEME_COLOR_PRESETS, type ThemeColor } from '../settings-model';
import { settingsChanged } from '../settings-slice';

type ChoiceKey = keyof typeof SETTING_CHOICES;

const LABELS: Record<string, string> = {
  light: 'Light',
  dark: 'Dark',
  'semi-dark': 'Semi Dark',
  default: 'Default',
  bordered: 'Bordered',
  static: 'Static',
  hidden: 'Hidden',
  fixed: 'Fixed',
  vertical: 'Vertical',
  horizontal: 'Horizontal',
  boxed: 'Boxed',
  fluid: 'Fluid',
  ltr: 'Left to right',
  rtl: 'Right to left',
  accordion: 'Accordion',
  collapse: 'Collapse',
};

type ChoiceProps = {
  name: Exclude<ChoiceKey, 'themeColor'>;
  label: string;
  disabledOptions?: readonly string[];
  help?: string;
};

function Choice({ name, label, disabledOptions = [], help }: ChoiceProps) {
  const value = useAppSelector((state) => state.settings[name]);
  const dispatch = useAppDispatch();
  const id = `setting-${name}`;
  return (
    <FormControl component="fieldset" sx={{ mb: 2, display: 'block' }}>
      <FormLabel component="legend" id={id} sx={{ fontSize: 14, mb: 0.5 }}>
        {label}
      </FormLabel>
      <RadioGroup
        row
        aria-labelledby={id}
        name={name}
        value={value}
        onChange={(_e, next) => dispatch(settingsChanged({ [name]: next } as Partial<Settings>))}
      >
        {SETTING_CHOICES[name].map((option) => (
          <FormControlLabel
            key={option}
            value={option}
            control={<Radio size="small" />}
            label={LABELS[option] ?? option}
            disabled={disabledOptions.includes(option)}
          />
        ))}
      </RadioGroup>
      {help ? <FormHelperText>{help}</FormHelperText> : null}
    </FormControl>
  );
}

function Toggle({ name, label }: { name: 'navCollapsed' | 'navHidden'; label: string }) {
  const value = useAppSelector((state) => state.settings[name]);
  const dispatch = useAppDispatch();
  return (
    <FormControlLabel
      sx={{ display: 'flex', mb: 1 }}
      control={
        <Switch checked={value} onChange={(_e, checked) => dispatch(settingsChanged({ [name]: checked }))} />
      }
      label={label}
    />
  );
}

function ColorPicker() {
  const value = useAppSelector((state) => state.settings.themeColor);
  const dispatch = useAppDispatch();
  return (
    <FormControl component="fieldset" sx={{ mb: 2, display: 'block' }}>
      <FormLabel component="legend" sx={{ fontSize: 14, mb: 1 }}>
        Primary color
      </FormLabel>
      <Box role="radiogroup" aria-label="Primary color" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {(Object.entries(THEME_COLOR_PRESETS) as [ThemeColor, string][]).map(([name, color]) => (
          <Box
            key={name}
            component="button"
            type="button"
            role="radio"
            aria-checked={value === name}
            aria-label={name}
            onClick={() => dispatch(settingsChanged({ themeColor: name }))}
            sx={{
              width: 36,
              height: 36,
              borderRadius: 1,
              border: 0,
              cursor: 'pointer',
              bgcolor: color,
              color: '#fff',
              display: 'grid',
              placeItems: 'center',
              '&:focus-visible': { outline: '2px solid', outlineColor: 'text.primary', outlineOffset: 2 },
            }}
          >
            {value === name ? <Check fontSize="small" /> : null}
          </Box>
        ))}
      </Box>
    </FormControl>
  );
}

/** Every layout setting of spec section 3, shared by the customizer drawer and /settings. */
export function SettingsForm() {
  // Below lg the layout is forced to vertical (spec section 2), so horizontal is not offered there.
  const belowLg = useMediaQuery((theme: Theme) => theme.breakpoints.down('lg'), { noSsr: true });
  return (
    <Box>
      <Typography variant="overline" color="text.secondary" component="h2">
        Theming
      </Typography>
      <Choice name="mode" label="Mode" />
      <Choice name="skin" label="Skin" />
      <ColorPicker />
      <Choice name="contentWidth" label="Content width" />
      <Typography variant="overline" color="text.secondary" component="h2">
        Layout
      </Typography>
      <Choice
        name="layout"
        label="Layout"
        disabledOptions={belowLg ? ['horizontal'] : []}
        help={
          belowLg
            ? 'The horizontal layout needs a wider window; narrower ones always use the vertical menu.'
            : undefined
        }
      />
      <Choice name="appBar" label="App bar" />
      <Choice name="footer" label="Footer" />
      <Choice name="direction" label="Direction" />
      <Typography variant="overline" color="text.secondary" component="h2">
        Menu
      </Typography>
      <Toggle name="navCollapsed" label="Menu collapsed" />
      <Toggle name="navHidden" label="Menu hidden" />
      <Choice name="verticalNavToggleType" label="Menu toggle" />
    </Box>
  );
}
