import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { canonicalize as jcs } from 'json-canonicalize'
import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { DEFAULT_JSON_LIMITS, inspectJson, resolveLimits, type JsonLimits } from '../json/guard.js'
import { guardStatics } from '../errors/guard.js'
import { type ArgCodes, objectArg, parseArgs, says } from '../validation/args.js'

/** `sha256:` + 64 lowercase hex. */
export const FULL_HASH_REGEX = /^sha256:[0-9a-f]{64}$/
/** The 8-hex short form used by grading entries, file names and `index.json`. */
export const SHORT_HASH_REGEX = /^[0-9a-f]{8}$/

/** A computed hash in both forms, or `null`s with the reasons. */
export interface HashResult {
    /** `sha256:<64 hex>` */
    readonly hash: string | null
    /** First 8 hex characters of the digest. */
    readonly short: string | null
    readonly errors: Issue[]
}

const FAILED = (errors: Issue[]): HashResult => ({ hash: null, short: null, errors })

function digest(bytes: Uint8Array): { hash: string; short: string } {
    const hex = bytesToHex(sha256(bytes))
    return { hash: `sha256:${hex}`, short: hex.slice(0, 8) }
}

function canonicalJson(value: unknown, field: string, limits: JsonLimits): { json: string | null; errors: Issue[] } {
    if (value === undefined) {
        return { json: null, errors: [createIssue('HSH-001', '', { field })] }
    }
    const problems = inspectJson(value, limits)
    if (problems.length > 0) {
        // Re-coded as HSH-003 so callers of the hash API see one family; the path stays exact.
        return { json: null, errors: problems.map((p) => createIssue('HSH-003', p.path, { detail: p.message })) }
    }
    return canonicalText(value)
}

/** RFC 8785 text of a value known to be plain JSON; HSH-004 should the canonicaliser still refuse it. */
function canonicalText(value: unknown): { json: string | null; errors: Issue[] } {
    try {
        return { json: jcs(value), errors: [] }
    } catch (cause) {
        return {
            json: null,
            errors: [createIssue('HSH-004', '', { detail: cause instanceof Error ? cause.message : 'unknown' })]
        }
    }
}

/** The hash of canonical text, or the issues that kept it from being made. */
function hashOf({ json, errors }: { json: string | null; errors: Issue[] }): HashResult {
    return json === null ? FAILED(errors) : { ...digest(utf8ToBytes(json)), errors: [] }
}

// Legacy sources carry their own hash; it must not feed into itself (03 ⚠ C9).
function withoutField(value: object, field: string): Record<string, unknown> {
    return Object.fromEntries(Object.entries(value).filter(([key]) => key !== field))
}

/**
 * {@link HashGenerator.computeSchemaHash} of a schema object that already passed `inspectJson`
 * with the default limits (as `gradeSingleSchema` checks `main` first): not walked a second time.
 */
export function schemaHashOfInspected(schema: Record<string, unknown>): HashResult {
    return hashOf(canonicalText(withoutField(schema, 'schemaHash')))
}

// Absent (or null): HSH-001; wrong type: HSH-002, with the value's type. The value hashed is the input itself, so
// its findings stand at the root (`''`) under the argument's own name.
const ARGS: ArgCodes<'HSH-001' | 'HSH-002'> = { missing: 'HSH-001', mismatch: 'HSH-002', create: createIssue }
const STYLE = { actual: 'type' } as const
const HASHED = {
    schema: objectArg({ expected: 'object', actual: 'type', field: 'schema' }),
    selection: objectArg({ expected: 'object', actual: 'type', field: 'selection' })
} as const
const TEXT = v.object({ text: v.string(says('string')) })
const BYTES = v.object({ bytes: v.instance(Uint8Array, says('Uint8Array')) })

function withoutOwnHash(value: unknown, field: keyof typeof HASHED, hashField: string, limits: JsonLimits): HashResult {
    const given = parseArgs(HASHED[field], value ?? undefined, ARGS, STYLE)
    if (given.value === null) return FAILED(given.errors)
    return hashOf(canonicalJson(withoutField(given.value, hashField), field, limits))
}

/**
 * Canonical JSON (RFC 8785 via json-canonicalize) and SHA-256 hashes. The input is checked to be
 * plain JSON first, because the canonicaliser drops `undefined` silently and throws on `NaN`.
 */
class HashGeneratorUnguarded {
    private constructor() {}

    /**
     * RFC 8785 canonical JSON text of a plain JSON value.
     * @param input - `{ value, limits? }`
     * @returns `{ json, errors }`; `HSH-001` when `value` is missing, `HSH-003` when it is not plain JSON.
     * @example HashGenerator.canonicalize({ value: { b: 1, a: 2 } }).json // '{"a":2,"b":1}'
     */
    static canonicalize(input: { value?: unknown; limits?: Partial<JsonLimits> }): {
        json: string | null
        errors: Issue[]
    } {
        return canonicalJson(input?.value, 'value', resolveLimits(input?.limits))
    }

    /**
     * SHA-256 over the UTF-8 bytes of the canonical JSON of `value`.
     * @param input - `{ value, limits? }`
     * @returns `{ hash: 'sha256:<64 hex>', short: '<8 hex>', errors }`; HSH-001/HSH-003/HSH-004 on bad input.
     * @example HashGenerator.computeHash({ value: { a: 1 } }).short
     */
    static computeHash(input: { value?: unknown; limits?: Partial<JsonLimits> }): HashResult {
        return hashOf(canonicalJson(input?.value, 'value', resolveLimits(input?.limits)))
    }

    /**
     * Hash of a FlowMCP schema object (the `main` export), ignoring a top-level `schemaHash` field.
     * @param input - `{ schema, limits? }`
     * @returns `{ hash, short, errors }`; `HSH-002` when `schema` is not an object.
     * @example HashGenerator.computeSchemaHash({ schema: main }).short
     */
    static computeSchemaHash(input: { schema?: unknown; limits?: Partial<JsonLimits> }): HashResult {
        return withoutOwnHash(input?.schema, 'schema', 'schemaHash', resolveLimits(input?.limits))
    }

    /**
     * Hash of a selection definition, ignoring a top-level `selectionHash` field.
     * @param input - `{ selection, limits? }`
     * @returns `{ hash, short, errors }`; `HSH-002` when `selection` is not an object.
     * @example HashGenerator.computeSelectionHash({ selection }).short
     */
    static computeSelectionHash(input: { selection?: unknown; limits?: Partial<JsonLimits> }): HashResult {
        return withoutOwnHash(input?.selection, 'selection', 'selectionHash', resolveLimits(input?.limits))
    }

    /**
     * SHA-256 of raw file content: a string is hashed as its UTF-8 bytes, a `Uint8Array` as is.
     * Used for protocol v1's `schemaHash` and for `aboutHash` (03 ⚠ C11: bytes, no normalisation).
     * @param input - `{ text }` or `{ bytes }`
     * @returns `{ hash, short, errors }`; HSH-001 when neither is given, HSH-002 on a wrong type.
     * @example HashGenerator.hashBytes({ text: 'export const main = {}\n' }).hash
     */
    static hashBytes(input: { text?: unknown; bytes?: unknown }): HashResult {
        const text = input?.text
        const bytes = input?.bytes
        if (text === undefined && bytes === undefined) {
            return FAILED([createIssue('HSH-001', '', { field: 'text' })])
        }
        if (text !== undefined) {
            const given = parseArgs(TEXT, { text }, ARGS, STYLE)
            if (given.value === null) return FAILED(given.errors)
            return { ...digest(utf8ToBytes(given.value.text)), errors: [] }
        }
        const given = parseArgs(BYTES, { bytes }, ARGS, STYLE)
        if (given.value === null) return FAILED(given.errors)
        return { ...digest(given.value.bytes), errors: [] }
    }

    /**
     * Whether a string is a short hash (`^[0-9a-f]{8}$`) or, with `full: true`, a `sha256:<64 hex>` hash.
     * @param input - `{ hash, full? }`
     * @returns `{ valid }` (false for any non-string)
     * @example HashGenerator.isValidHash({ hash: 'a1b2c3d4' }).valid // true
     */
    static isValidHash(input: { hash?: unknown; full?: boolean }): { valid: boolean } {
        const hash = input?.hash
        if (typeof hash !== 'string') {
            return { valid: false }
        }
        return { valid: (input.full === true ? FULL_HASH_REGEX : SHORT_HASH_REGEX).test(hash) }
    }
}

/**
 * The public HashGenerator: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const HashGenerator = /* @__PURE__ */ guardStatics(HashGeneratorUnguarded, 'HashGenerator')

export { DEFAULT_JSON_LIMITS }
