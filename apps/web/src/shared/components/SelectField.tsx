import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';

type Option = { value: string | number; label: string };
type Props<T extends FieldValues> = {
  control: Control<T, unknown, FieldValues>;
  name: Path<T>;
  label: string;
  options: Option[];
};

/** A labelled MUI select bound to a form field (controlled, as MUI's select needs). */
export function SelectField<T extends FieldValues>({ control, name, label, options }: Props<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          select
          label={label}
          id={`field-${name}`}
          name={field.name}
          value={field.value ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
        >
          {options.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
