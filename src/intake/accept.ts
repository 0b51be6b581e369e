/**
 * One intake call for a registry: raw bytes or text in, the frozen entry (or every issue) out. Decoding (strict
 * UTF-8), `parseJson` (I-JSON: no duplicate key, lone surrogate or byte order mark), strict validation at `now`,
 * the stated facts and the re-check against the source, the envelope: the steps of docs/registry.md in one call.
 */
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { GradingEntryValidation, ValidateEntryInput } from '../grading/validate-entry.js'
import { validateWith } from '../grading/validate-entry.js'
import { parseJson } from '../json/guard.js'
import { INTAKE_EXTENSIONS } from './validate.js'
import { decodeUtf8 } from './utf8.js'
import { definedFields } from '../model/fields.js'

/** What {@link acceptGradingEntry} takes: the submission as bytes or text, and the validation options. */
export interface AcceptEntryInput extends Omit<ValidateEntryInput, 'entry' | 'envelope'> {
    /** The submission's bytes (UTF-8), as a request body arrives. */
    readonly bytes?: Uint8Array
    /** The submission as text; give `bytes` or `text`. */
    readonly text?: string
    /** A DSSE envelope from `Grading.sign`: its object, or its JSON text or bytes. */
    readonly envelope?: unknown
    /** Registry intake is strict unless `strict: false` is passed (then `now` may be left out). */
    readonly strict?: boolean
}

const isBytes = (value: unknown): value is Uint8Array => Object.prototype.toString.call(value) === '[object Uint8Array]'

/** A text or bytes argument as text, or its issue. */
function textOf(value: unknown, path: string): { text: string } | { issue: Issue } {
    if (typeof value === 'string') return { text: value }
    if (!isBytes(value))
        return {
            issue: createIssue('INP-004', path, {
                detail: 'expected the submission as bytes (a Uint8Array) or text (a string)'
            })
        }
    const decoded = decodeUtf8(value)
    if ('text' in decoded) return decoded
    return { issue: createIssue('INP-008', path, { detail: `at byte ${decoded.at}, ${decoded.why}` }) }
}

/** The envelope as an object: given as one, or parsed from its text or bytes. */
function envelopeOf(value: unknown, limits: unknown): { envelope: unknown; errors: Issue[] } {
    if (typeof value !== 'string' && !isBytes(value)) return { envelope: value, errors: [] }
    const read = textOf(value, '/envelope')
    if ('issue' in read) return { envelope: undefined, errors: [read.issue] }
    const parsed = parseJson({ text: read.text, ...(limits !== undefined ? { limits: limits as never } : {}) })
    return { envelope: parsed.value, errors: parsed.errors.map((e) => ({ ...e, path: `/envelope${e.path}` })) }
}

/**
 * Accepts one grading entry as a registry receives it: decodes the bytes (strict UTF-8, INP-008), parses them as
 * I-JSON (`parseJson`, INP-*), validates strictly at `now` (unless `strict: false`), checks the stated facts and
 * re-checks the answers against `expect.source` (BND-*, RCK-*), and verifies `envelope` against `trustedKeys`
 * (ATT-*). What it returns is the frozen checked copy: store that, never the submission.
 * @param input - `{ bytes | text, now, expect?, envelope?, trustedKeys?, strict?, maxClockSkewMs?, limits? }`
 * @returns `{ valid: true, entry, errors, agedGrade, provenance }` or `{ valid: false, errors }`
 * @example
 * const r = acceptGradingEntry({ bytes: body, now: new Date(), expect: { schemaId, source } })
 * if (r.valid) await store.put(r.entry)
 */
export function acceptGradingEntry(input: AcceptEntryInput): GradingEntryValidation {
    const options = input ?? {}
    const given = options.bytes !== undefined ? options.bytes : options.text
    const read = textOf(given, options.bytes !== undefined ? '/bytes' : '/text')
    if ('issue' in read) return { valid: false, errors: [read.issue] }
    const parsed = parseJson({ text: read.text, ...definedFields({ limits: options.limits }) })
    if (parsed.errors.length > 0) return { valid: false, errors: parsed.errors }
    const envelope = envelopeOf(options.envelope, options.limits)
    if (envelope.errors.length > 0) return { valid: false, errors: envelope.errors }
    const { bytes: _bytes, text: _text, ...rest } = options
    // Strict unless asked otherwise; a host that left out `now` past its types meets GRD-074 at run time.
    const checked = {
        ...rest,
        entry: parsed.value,
        strict: options.strict !== false,
        ...definedFields({ envelope: envelope.envelope })
    } as ValidateEntryInput
    return validateWith(checked, INTAKE_EXTENSIONS)
}
