import { useCallback, useRef, useState, type FormEvent } from 'react';
import { MESSAGES } from '@connect/shared/light';

type Values = Record<string, string>;

/** Each field's first problem, and `root` for one that is not a field's (the schema did not load). */
export type SmallFormErrors<T extends Values> = Partial<Record<keyof T | 'root', { message: string }>>;

/** A schema as zod (and zod/mini) shape it; only `safeParse` is used. */
type Schema<T extends Values> = {
  safeParse: (
    values: T,
  ) => { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
};

/** The problems found, and the parsed values (trimmed, lower-cased…) when there are none. */
export type Validation<T extends Values> = { errors: SmallFormErrors<T>; data?: T };

export type LazyValidator<T extends Values> = {
  (values: T): Promise<Validation<T>>;
  /** Starts loading the schema now (call it once the user starts typing or pointing). */
  preload: () => void;
};

/**
 * A validator whose schema (with zod) loads on first use, not with the page. Should the download
 * fail, the form reports the generic error and the next attempt retries it.
 */
export function lazyValidator<T extends Values>(loadSchema: () => Promise<Schema<T>>): LazyValidator<T> {
  let loading: Promise<Schema<T>> | undefined;
  const load = () =>
    (loading ??= loadSchema().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  const validate = async (values: T): Promise<Validation<T>> => {
    let schema: Schema<T>;
    try {
      schema = await load();
    } catch {
      return { errors: { root: { message: MESSAGES.generic } } as SmallFormErrors<T> };
    }
    const result = schema.safeParse(values);
    if (result.success) return { errors: {}, data: result.data };
    const errors: SmallFormErrors<T> = {};
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? 'root') as keyof T;
      errors[name] ??= { message: issue.message };
    }
    return { errors };
  };
  return Object.assign(validate, { preload: () => void load().catch(() => undefined) });
}

/**
 * The few parts of react-hook-form that the login form uses, for the one page that must render
 * with as little JavaScript as possible (README, Performance: react-hook-form is ~14 KB gzipped):
 * uncontrolled inputs read through their refs; a field is checked when it is first left and on
 * every change after that, and every field on submit ("onTouched", as the other forms); the first
 * field in error takes the focus; `isSubmitting` holds while the submit handler runs, and a second
 * submit meanwhile is ignored.
 */
export function useSmallForm<T extends Values>({
  defaultValues,
  validate,
}: {
  defaultValues: T;
  validate: (values: T) => Promise<Validation<T>>;
}) {
  const inputs = useRef<Partial<Record<keyof T, HTMLInputElement>>>({});
  const touched = useRef(new Set<keyof T>());
  const submitted = useRef(false);
  const busy = useRef(false);
  const [errors, setErrors] = useState<SmallFormErrors<T>>({});
  const [isSubmitting, setIsSubmitting] = useState(false);
  const names = Object.keys(defaultValues) as (keyof T)[];

  const values = useCallback(
    () =>
      Object.fromEntries(
        (Object.keys(defaultValues) as (keyof T)[]).map((name) => [
          name,
          inputs.current[name]?.value ?? defaultValues[name],
        ]),
      ) as T,
    [defaultValues],
  );

  const checkField = async (name: keyof T) => {
    const { errors: found } = await validate(values());
    setErrors((previous) => {
      const next = { ...previous };
      if (found[name]) next[name] = found[name];
      else delete next[name];
      return next;
    });
  };

  /** The props of a TextInput for the field: name, handlers, the input's ref, error and its text. */
  const field = (name: keyof T & string) => ({
    name,
    onChange: () => {
      if (submitted.current || touched.current.has(name)) void checkField(name);
    },
    onBlur: () => {
      touched.current.add(name);
      void checkField(name);
    },
    inputRef: (input: HTMLInputElement | null) => {
      if (input && inputs.current[name] !== input) {
        // The first value, as react-hook-form sets it on registration.
        if (!inputs.current[name]) input.value = defaultValues[name] ?? '';
        inputs.current[name] = input;
      }
    },
    error: Boolean(errors[name]),
    helperText: errors[name]?.message,
  });

  const handleSubmit = (onValid: (values: T) => Promise<void>) => async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy.current) return;
    busy.current = true;
    submitted.current = true;
    try {
      const { errors: found, data } = await validate(values());
      setErrors(found);
      if (!data) {
        inputs.current[names.find((name) => found[name]) ?? names[0]!]?.focus();
        return;
      }
      setIsSubmitting(true);
      try {
        // The schema's output, as react-hook-form passes it: trimmed, lower-cased…
        await onValid(data);
      } finally {
        setIsSubmitting(false);
      }
    } finally {
      busy.current = false;
    }
  };

  return { field, handleSubmit, errors, isSubmitting };
}
