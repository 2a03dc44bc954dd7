import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback } from 'react';
import {
  type FieldValues,
  get,
  type Path,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';

/** The zod 4 schemas of @parley/contracts, seen through their input and output types. */
type Schema = { _zod: { input: unknown; output: unknown } };
export type SchemaInput<S extends Schema> = S['_zod']['input'] & FieldValues;
export type SchemaOutput<S extends Schema> = S['_zod']['output'] & FieldValues;

/** react-hook-form validated by a shared schema: the same rules the server applies. */
export function useZodForm<S extends Schema>(
  schema: S,
  options: Omit<UseFormProps<SchemaInput<S>, unknown, SchemaOutput<S>>, 'resolver'> = {},
): UseFormReturn<SchemaInput<S>, unknown, SchemaOutput<S>> {
  return useForm<SchemaInput<S>, unknown, SchemaOutput<S>>({
    // biome-ignore lint/suspicious/noExplicitAny: the resolver's overloads cannot see through the generic schema.
    resolver: zodResolver(schema as any) as never,
    ...options,
  });
}

/** A resolver for `useLazyZodForm`: `zodResolver` of a shared schema, from a module loaded on demand. */
export type LazyResolver<S extends Schema> = () => Promise<
  Resolver<SchemaInput<S>, unknown, SchemaOutput<S>>
>;

/**
 * `useZodForm` for the pages that must paint first (sign-in): zod and the schema are loaded when
 * the person starts typing (`warmUp`, for the form's onInput) or at the first validation, so they
 * are not part of the page's first download (zod alone is 24 KB of the /login budget of 200).
 */
export function useLazyZodForm<S extends Schema>(
  load: LazyResolver<S>,
  options: Omit<UseFormProps<SchemaInput<S>, unknown, SchemaOutput<S>>, 'resolver'> = {},
): UseFormReturn<SchemaInput<S>, unknown, SchemaOutput<S>> & { warmUp: () => void } {
  const form = useForm<SchemaInput<S>, unknown, SchemaOutput<S>>({
    resolver: async (...args) => (await load())(...args),
    ...options,
  });
  const warmUp = useCallback(() => void load(), [load]);
  return { ...form, warmUp };
}

/**
 * Props wiring a text input to a form field, its error shown below it. `optional` fields send
 * nothing when left empty, as the shared schemas expect (an empty string is not "absent").
 */
export function fieldProps<T extends FieldValues>(
  // biome-ignore lint/suspicious/noExplicitAny: any output type will do here.
  form: UseFormReturn<T, unknown, any>,
  name: Path<T>,
  options: { optional?: boolean } = {},
) {
  const { ref, ...rest } = form.register(
    name,
    options.optional ? { setValueAs: (v: unknown) => (v === '' ? undefined : v) } : undefined,
  );
  const message = (get(form.formState.errors, name) as { message?: string } | undefined)?.message;
  return { ...rest, inputRef: ref, id: `field-${name}`, error: Boolean(message), helperText: message };
}
