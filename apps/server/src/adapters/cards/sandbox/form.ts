import { invalidRequest, parameterMissing } from './errors.ts';

const invalid = (code: string, message: string, param: string) => invalidRequest(message, { code, param });

/*
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracket notation for nested
 * fields (`metadata[orderId]=…`, `payment_method_data[card][number]=…`), as the stripe SDK
 * writes it. Arrays (`x[0]=…`) are read as objects keyed by index; the sandbox needs none.
 */

export type FormValue = string | FormObject;
export type FormObject = { [key: string]: FormValue };

/** Keys that would reach Object.prototype if assigned: refused, whatever they are nested in. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function pathOf(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw invalid('parameter_unknown', `Received unknown parameter: ${key}`, key);
  const inner = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!);
  return [match[1]!, ...inner];
}

export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = pathOf(key);
    if (path.some((part) => FORBIDDEN_KEYS.has(part) || part === '')) {
      throw invalid('parameter_unknown', `Received unknown parameter: ${key}`, key);
    }
    let node = root;
    for (const part of path.slice(0, -1)) {
      const next = Object.hasOwn(node, part) ? node[part] : undefined;
      if (typeof next === 'string') throw invalid('parameter_invalid_string', `Invalid object: ${key}`, key);
      node = next ?? (node[part] = {});
    }
    const last = path[path.length - 1]!;
    if (Object.hasOwn(node, last) && typeof node[last] === 'object')
      throw invalid('parameter_invalid_string', `Invalid string: ${key}`, key);
    node[last] = value;
  }
  return root;
}

/** Typed reads of one form level, refusing as Stripe does (parameter_missing, parameter_invalid_…). */
export class FormReader {
  constructor(
    private readonly form: FormObject,
    private readonly prefix = '',
  ) {}

  private name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  string(key: string): string | undefined {
    const value = this.form[key];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string')
      throw invalid('parameter_invalid_string', `Invalid string: ${this.name(key)}`, this.name(key));
    return value;
  }

  requiredString(key: string): string {
    const value = this.string(key);
    if (value === undefined) throw parameterMissing(this.name(key));
    return value;
  }

  integer(key: string): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!/^-?\d{1,15}$/.test(value)) {
      throw invalid('parameter_invalid_integer', `Invalid integer: ${value}`, this.name(key));
    }
    return Number(value);
  }

  requiredInteger(key: string): number {
    const value = this.integer(key);
    if (value === undefined) throw parameterMissing(this.name(key));
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') {
      throw invalid('parameter_invalid_boolean', `Invalid boolean: ${value}`, this.name(key));
    }
    return value === 'true';
  }

  object(key: string): FormReader | undefined {
    const value = this.form[key];
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'string')
      throw invalid('parameter_invalid_string', `Invalid object: ${this.name(key)}`, this.name(key));
    return new FormReader(value, this.name(key));
  }

  keys(): string[] {
    return Object.keys(this.form);
  }

  /** An array (`key[0]=…&key[1]=…`) of strings. */
  list(key: string): string[] | undefined {
    const value = this.form[key];
    if (value === undefined || value === '') return undefined;
    const items = typeof value === 'string' ? [value] : Object.values(value);
    if (items.some((item) => typeof item !== 'string')) {
      throw invalid('parameter_invalid_string', `Invalid array: ${this.name(key)}`, this.name(key));
    }
    return items as string[];
  }

  /** Stripe's metadata: at most 50 keys of up to 40 characters, values of up to 500. */
  metadata(key = 'metadata'): Record<string, string> {
    const value = this.form[key];
    if (value === undefined || value === '') return {};
    if (typeof value === 'string')
      throw invalid('parameter_invalid_string', `Invalid object: ${this.name(key)}`, this.name(key));
    const entries = Object.entries(value);
    if (entries.length > 50) throw invalid('parameter_invalid_string', 'Metadata can have at most 50 keys.', key);
    const metadata: Record<string, string> = {};
    for (const [name, text] of entries) {
      if (typeof text !== 'string' || name.length > 40 || text.length > 500) {
        throw invalid('parameter_invalid_string', `Invalid metadata value: ${key}[${name}]`, `${key}[${name}]`);
      }
      metadata[name] = text;
    }
    return metadata;
  }
}
