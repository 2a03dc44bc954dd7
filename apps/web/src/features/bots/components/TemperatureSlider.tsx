import Box from '@mui/material/Box';
import Slider from '@mui/material/Slider';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

type Props = { value: number; onChange: (value: number) => void; error?: string };

/** Temperature 0–2: lower answers stay closer to the sources, higher ones vary more. */
export function TemperatureSlider({ value, onChange, error }: Props) {
  const labelId = useId();
  return (
    <Box>
      <Typography id={labelId} variant="body2" gutterBottom>
        Temperature: {value.toFixed(1)}
      </Typography>
      <Slider
        aria-labelledby={labelId}
        value={value}
        min={0}
        max={2}
        step={0.1}
        marks={[
          { value: 0, label: 'Precise' },
          { value: 1, label: '1' },
          { value: 2, label: 'Creative' },
        ]}
        valueLabelDisplay="auto"
        onChange={(_event, next) => onChange(Array.isArray(next) ? (next[0] ?? 0) : next)}
        sx={{ maxWidth: 420, mx: 3 }}
      />
      {error ? (
        <Typography variant="caption" color="error">
          {error}
        </Typography>
      ) : null}
    </Box>
  );
}
