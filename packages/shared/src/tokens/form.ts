import { z } from 'zod';
import { evmAddressProblem, isValidBaseTokenUri } from './addresses.ts';
import { TOKEN_LIMITS, type TTierType, type TTokenType } from './constants.ts';
import { currencyCodeInName, currencyCodeInUnit } from './currency.ts';
import { TOKEN_MESSAGES } from './messages.ts';
import { wholeNumberFromText } from '../numbers.ts';

/*
 * The token form (spec §3 token form draft, §5 rules), validated the same way by the SPA and the
 * server.
 */

/** The token form's fields (spec §3), plus the flex/vari attributes max supply and remintable. */
export const TOKEN_FORM_FIELDS = [
  'name',
  'unit',
  'decimal',
  'initialSupply',
  'supplyHolderAddress',
  'minter',
  'maxSupply',
  'remintable',
  'tokenUri',
  'ownerAddress',
] as const;
export type TTokenFormField = (typeof TOKEN_FORM_FIELDS)[number];

/** The fields a tier's contract takes, in form order (QRC20 has decimals, QRC721 a base URI). */
export function tokenFormFields(tokenType: TTokenType, tierType: TTierType): TTokenFormField[] {
  const fields: TTokenFormField[] = ['name', 'unit'];
  fields.push(tokenType === 'QRC20' ? 'decimal' : 'tokenUri');
  fields.push('initialSupply', 'supplyHolderAddress');
  if (tierType === 'flex' || tierType === 'vari') fields.push('minter', 'maxSupply', 'remintable');
  if (tierType === 'vari') fields.push('ownerAddress');
  return fields;
}

const emptyToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/**
 * Where a token form comes from: the SPA's fields (`form`: numbers are text as typed, decimal digits
 * with thousands separators, empty text is "missing") or a JSON body (`json`: numbers are
 * numbers — text, even `"1000"`, is refused with the field's message; absent or null is
 * "missing"). Issue 27: `Number()` read `"0x10"` as 16 and `"1e3"` as 1000.
 */
export type TTokenFormSource = 'form' | 'json';

/** A whole number field; missing is `whenEmpty` when the field has one (maxSupply: 0, no limit). */
const wholeNumber = (source: TTokenFormSource, message: string, min: number, max: number, whenEmpty?: number) =>
  z.preprocess(
    (value) => {
      if (source === 'json') return value ?? whenEmpty;
      const v = emptyToUndefined(value) ?? whenEmpty;
      return typeof v === 'string' ? wholeNumberFromText(v, true) : v;
    },
    z
      .number({ error: message })
      .refine((n) => n >= 0, { message: TOKEN_MESSAGES.nonNegative, abort: true })
      .refine((n) => Number.isInteger(n) && n >= min && n <= max, { message }),
  );

const ZTokenName = z
  .string({ error: TOKEN_MESSAGES.nameRequired })
  .trim()
  .min(1, { message: TOKEN_MESSAGES.nameRequired })
  .max(TOKEN_LIMITS.nameMax, { message: TOKEN_MESSAGES.nameTooLong })
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._'&-]*$/u, { message: TOKEN_MESSAGES.nameCharacters })
  .superRefine((name, ctx) => {
    const code = currencyCodeInName(name);
    if (code) ctx.addIssue({ code: 'custom', message: TOKEN_MESSAGES.nameCurrency(code) });
  });

const ZTokenUnit = z
  .string({ error: TOKEN_MESSAGES.unitRequired })
  .trim()
  .min(1, { message: TOKEN_MESSAGES.unitRequired })
  .regex(/^[A-Za-z0-9]+$/, { message: TOKEN_MESSAGES.unitLength })
  .max(TOKEN_LIMITS.unitMax, { message: TOKEN_MESSAGES.unitLength })
  .superRefine((unit, ctx) => {
    const code = currencyCodeInUnit(unit);
    if (code) ctx.addIssue({ code: 'custom', message: TOKEN_MESSAGES.unitCurrency(code) });
  });

/** An EVM address (spec §5), trimmed; mixed case must pass the EIP-55 checksum. */
export const ZEvmAddress = z
  .string({ error: TOKEN_MESSAGES.addressRequired })
  .trim()
  .min(1, { message: TOKEN_MESSAGES.addressRequired })
  .superRefine((value, ctx) => {
    const problem = evmAddressProblem(value);
    if (problem === 'format') ctx.addIssue({ code: 'custom', message: TOKEN_MESSAGES.addressFormat });
    if (problem === 'checksum') ctx.addIssue({ code: 'custom', message: TOKEN_MESSAGES.addressChecksum });
  });

const ZTokenUri = z
  .string({ error: TOKEN_MESSAGES.tokenUriRequired })
  .trim()
  .min(1, { message: TOKEN_MESSAGES.tokenUriRequired })
  .max(TOKEN_LIMITS.tokenUriMax, { message: TOKEN_MESSAGES.tokenUriTooLong })
  .refine(isValidBaseTokenUri, { message: TOKEN_MESSAGES.tokenUriFormat });

const tokenFormShape = (source: TTokenFormSource) => ({
  name: ZTokenName,
  unit: ZTokenUnit,
  decimal: wholeNumber(source, TOKEN_MESSAGES.decimals, TOKEN_LIMITS.decimalsMin, TOKEN_LIMITS.decimalsMax),
  initialSupply: wholeNumber(source, TOKEN_MESSAGES.initialSupply, TOKEN_LIMITS.supplyMin, TOKEN_LIMITS.supplyMax),
  supplyHolderAddress: ZEvmAddress,
  minter: ZEvmAddress,
  maxSupply: wholeNumber(source, TOKEN_MESSAGES.maxSupply, TOKEN_LIMITS.supplyMin, TOKEN_LIMITS.supplyMax, 0),
  remintable: z.preprocess((v) => v ?? false, z.boolean({ error: TOKEN_MESSAGES.remintable })),
  tokenUri: ZTokenUri,
  ownerAddress: ZEvmAddress,
});
const tokenFormShapes = { form: tokenFormShape('form'), json: tokenFormShape('json') } as const;

/** The parsed token form: fields a tier does not take are absent. */
export type TTokenForm = {
  name: string;
  unit: string;
  decimal?: number;
  initialSupply: number;
  supplyHolderAddress: string;
  minter?: string;
  maxSupply?: number;
  remintable?: boolean;
  tokenUri?: string;
  ownerAddress?: string;
};
/** The form's values as typed (numbers may still be text; everything starts empty, spec §3). */
export type TTokenFormInput = {
  name?: string;
  unit?: string;
  decimal?: number | string;
  initialSupply?: number | string;
  supplyHolderAddress?: string;
  minter?: string;
  maxSupply?: number | string;
  remintable?: boolean;
  tokenUri?: string;
  ownerAddress?: string;
};
export const EMPTY_TOKEN_FORM: TTokenFormInput = {
  name: '',
  unit: '',
  decimal: '',
  initialSupply: '',
  supplyHolderAddress: '',
  minter: '',
  maxSupply: '',
  remintable: false,
  tokenUri: '',
  ownerAddress: '',
};

/**
 * The token form of one tier (spec §5 rules), validated the same way by the SPA and the server:
 * only the fields the tier's contract takes are read, all of them required except maxSupply
 * (0 = no limit) and remintable (false). The maximum supply, when set, is at least the initial one.
 */
export function tokenFormSchema(
  tokenType: TTokenType,
  tierType: TTierType,
  source: TTokenFormSource = 'form',
): z.ZodType<TTokenForm, TTokenFormInput> {
  const key = `${tokenType}:${tierType}:${source}`;
  let schema = formSchemas.get(key);
  if (!schema) {
    schema = buildTokenFormSchema(tokenType, tierType, source);
    formSchemas.set(key, schema);
  }
  return schema;
}
const formSchemas = new Map<string, z.ZodType<TTokenForm, TTokenFormInput>>();

function buildTokenFormSchema(tokenType: TTokenType, tierType: TTierType, source: TTokenFormSource) {
  const fields = tokenFormFields(tokenType, tierType);
  const shape = Object.fromEntries(fields.map((field) => [field, tokenFormShapes[source][field]]));
  return z.object(shape).superRefine((value, ctx) => {
    const form = value as TTokenForm;
    if (
      form.maxSupply !== undefined &&
      form.maxSupply !== 0 &&
      typeof form.initialSupply === 'number' &&
      form.maxSupply < form.initialSupply
    ) {
      ctx.addIssue({ code: 'custom', path: ['maxSupply'], message: TOKEN_MESSAGES.maxSupplyBelowInitial });
    }
  }) as unknown as z.ZodType<TTokenForm, TTokenFormInput>;
}

/** Field errors of a form for a tier, as problem-details invalidParams ([] when valid). */
export function tokenFormErrors(
  tokenType: TTokenType,
  tierType: TTierType,
  input: unknown,
  source: TTokenFormSource = 'form',
): { name: string; reason: string }[] {
  const result = tokenFormSchema(tokenType, tierType, source).safeParse(input ?? {});
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    name: issue.path.map(String).join('.') || 'body',
    reason: issue.message,
  }));
}
