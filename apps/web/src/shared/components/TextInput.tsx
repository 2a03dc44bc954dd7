import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { ReactNode, Ref } from 'react';

export type TextInputProps = Omit<OutlinedInputProps, 'error' | 'label' | 'inputRef'> & {
  id: string;
  label: string;
  error?: boolean;
  helperText?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * A labelled outlined input with its error below. MUI's TextField also bundles Select, Menu and
 * Popover, which the sign-in pages never use: this keeps /login within its bundle budget.
 */
export function TextInput({
  id,
  label,
  error,
  helperText,
  fullWidth = true,
  size = 'small',
  ...input
}: TextInputProps) {
  const helperId = helperText ? `${id}-helper` : undefined;
  return (
    <FormControl fullWidth={fullWidth} size={size} error={error} variant="outlined">
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput id={id} label={label} aria-describedby={helperId} {...input} />
      {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : null}
    </FormControl>
  );
}
