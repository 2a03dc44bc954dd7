import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link } from 'react-router';

export type SourceOption = { id: number; label: string; detail?: string };

type Props = {
  title: string;
  options: SourceOption[];
  selected: number[];
  loading: boolean;
  emptyText: string;
  manageLabel: string;
  /** Opens the page where more of it is added (leaves the current page). */
  manageHref?: string;
  /** Adds more of it in place (a dialog), so a form around the list keeps what was typed. */
  onAdd?: () => void;
  onChange: (ids: number[]) => void;
};

/** One kind of knowledge as a checkbox list, with a link or a dialog to add more of it. */
export function SourceChecklist({
  title,
  options,
  selected,
  loading,
  emptyText,
  manageHref,
  manageLabel,
  onAdd,
  onChange,
}: Props) {
  const toggle = (id: number, on: boolean) =>
    onChange(on ? [...selected, id] : selected.filter((value) => value !== id));
  return (
    <Paper variant="outlined" component="fieldset" sx={{ p: 2, m: 0, minWidth: 0 }}>
      <Stack direction="row" alignItems="center" sx={{ mb: 1 }}>
        <Typography component="legend" variant="subtitle1" fontWeight={600} sx={{ flex: 1, float: 'left' }}>
          {title}
        </Typography>
        {onAdd ? (
          <Button size="small" onClick={onAdd}>
            {manageLabel}
          </Button>
        ) : (
          <Button size="small" component={Link} to={manageHref ?? '/bot'}>
            {manageLabel}
          </Button>
        )}
      </Stack>
      {loading ? <CircularProgress size={20} aria-label={`Loading ${title}`} /> : null}
      {!loading && options.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {emptyText}
        </Typography>
      ) : null}
      <FormGroup>
        {options.map((option) => (
          <FormControlLabel
            key={option.id}
            control={
              <Checkbox
                checked={selected.includes(option.id)}
                onChange={(event) => toggle(option.id, event.target.checked)}
              />
            }
            label={
              <span>
                {option.label}
                {option.detail ? (
                  <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
                    {option.detail}
                  </Typography>
                ) : null}
              </span>
            }
          />
        ))}
      </FormGroup>
    </Paper>
  );
}
