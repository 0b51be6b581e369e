import { EXTRA_QUESTION_TEXTS } from '../deterministic/answers.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { QUESTIONS, type AreaQuestion } from '../areas/catalogue.js'
import type { ImprovementHint } from '../areas/output.js'
import { CATALOGUE } from '../errors/catalogue/index.js'
import * as v from 'valibot'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import { objectArg, parseArgs, says } from '../validation/args.js'
import { pointer as pointerOf } from '../errors/pointer.js'
import type { ErrorCodeDefinition, Issue, Severity } from '../errors/types.js'
import { isEnvironmentItem } from '../fix/fix-list.js'
import { withTool } from '../fix/tool-names.js'
import type { FixItem, StaleRecording } from '../fix/types.js'
import { PACKAGE_VERSION } from '../version.js'
import { isObject } from '../model/object.js'
import { guardStatics } from '../errors/guard.js'
import { definedFields } from '../model/fields.js'

/**
 * Fix items as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), the format code
 * hosts read to show findings next to the lines they are about. One result per item, one rule per
 * distinct code, explained from the error catalogue or the question catalogue.
 */

/** The `$schema` every log names: the OASIS SARIF 2.1.0 schema. */
export const SARIF_SCHEMA_URI =
    'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json'
/** The key of the fingerprint in `partialFingerprints`: sha-256 hex of `code|schemaId|pointer`. */
export const SARIF_FINGERPRINT_KEY = 'flowmcpGrading/v1'
/** The `uriBaseId` a relative file is given; `baseUri` says where it is. */
export const SARIF_SOURCE_ROOT = 'SRCROOT'
/** Most items written into one log. */
export const MAX_SARIF_ITEMS = 100_000
/** Most item problems listed one by one; the rest are counted in one SRF-007. */
const MAX_ITEM_ISSUES = 50
const MAX_NAME_LENGTH = 200
const MAX_URI_LENGTH = 2048

/** A SARIF `level`. */
export type SarifLevel = 'error' | 'warning' | 'note'

export interface SarifMessage {
    readonly text: string
}

/** A rule (`reportingDescriptor`): one per distinct issue code or question id. */
export interface SarifRule {
    readonly id: string
    readonly shortDescription: SarifMessage
    readonly fullDescription: SarifMessage
    readonly help: SarifMessage
    readonly helpUri?: string
    readonly defaultConfiguration: { readonly level: SarifLevel }
    readonly properties: { readonly tags: readonly string[]; readonly [key: string]: unknown }
}

/** One result: one fix item. */
export interface SarifResult {
    readonly ruleId: string
    readonly ruleIndex: number
    readonly level: SarifLevel
    readonly message: SarifMessage
    readonly locations: ReadonlyArray<{
        readonly physicalLocation?: {
            readonly artifactLocation: { readonly uri: string; readonly uriBaseId?: string }
            readonly region?: { readonly startLine: number; readonly startColumn?: number }
        }
        readonly logicalLocations: ReadonlyArray<{ readonly name: string; readonly fullyQualifiedName: string }>
    }>
    readonly partialFingerprints: { readonly [key: string]: string }
    readonly properties: {
        readonly schemaId: string
        readonly pointer: string
        readonly kind?: FixItem['kind']
        readonly cost?: number
        readonly score?: number | string
        readonly unit?: string
        readonly area?: string
        readonly tool?: string
        readonly question?: string
        readonly reasoning?: string
        readonly hint?: ImprovementHint
        readonly placed?: 'target' | 'unit'
        /** A stale recording (DPT-022): the test, its request (keys masked) and the command that records it again. */
        readonly recording?: StaleRecording
        /**
         * `true` on a tool not tested here (`ENVIRONMENT_BLOCKED_REASONS`: a missing key, recording, runtime, …): a
         * notice of where the run was, which another machine tests, not a finding about the schema.
         */
        readonly notTestedHere?: true
    }
}

export interface SarifRun {
    readonly tool: {
        readonly driver: {
            readonly name: string
            readonly version: string
            readonly informationUri?: string
            readonly rules: readonly SarifRule[]
        }
    }
    readonly originalUriBaseIds?: { readonly [id: string]: { readonly uri: string } }
    readonly columnKind: 'utf16CodeUnits'
    readonly results: readonly SarifResult[]
}

/** A SARIF 2.1.0 log with one run. */
export interface SarifLog {
    readonly $schema: string
    readonly version: '2.1.0'
    readonly runs: readonly [SarifRun]
}

/** The analysis tool named in the log; the default is this package. */
export interface SarifTool {
    readonly name: string
    readonly version: string
    readonly informationUri?: string
}

/** The input of {@link Sarif.fromFixItems}. */
export interface SarifInput {
    readonly items: readonly FixItem[]
    readonly tool?: SarifTool
    /** Absolute URI (ending in `/`) relative files are resolved against (`originalUriBaseIds.SRCROOT`). */
    readonly baseUri?: string
    /**
     * Absolute URI of `docs/errors.md` where a reader can open it; issue-code rules then get a `helpUri` to their
     * section.
     */
    readonly docsUri?: string
}

/** What {@link Sarif.fromFixItems} returns. */
export interface SarifFromFixItemsResult {
    /** The log, or `null` when an argument is wrong (SRF-001…SRF-003). */
    readonly log: SarifLog | null
    readonly errors: Issue[]
}

const LEVELS: Readonly<Record<Severity, SarifLevel>> = { error: 'error', warning: 'warning', info: 'note' }
const LEVEL_RANK: Readonly<Record<SarifLevel, number>> = { note: 0, warning: 1, error: 2 }
const PRIORITIES = ['low', 'medium', 'high'] as const

const own = (record: object, key: string): boolean => Object.hasOwn(record, key)
const isNonEmpty = (value: unknown, max: number): value is string =>
    typeof value === 'string' && value.length > 0 && value.length <= max
const isPositiveInteger = (value: unknown): value is number =>
    typeof value === 'number' && Number.isInteger(value) && value >= 1

/** An absolute URI (a scheme, then no white space); with `directory`, ending in `/`; never a fragment. */
function isAbsoluteUri(value: unknown, directory: boolean): value is string {
    if (typeof value !== 'string' || value.length > MAX_URI_LENGTH) return false
    return /^[A-Za-z][A-Za-z0-9+.-]*:[^\s#]+$/.test(value) && (!directory || value.endsWith('/'))
}

/** The string with lone surrogates replaced, so URI encoding cannot fail. */
function wellFormed(text: string): string {
    return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
}

/**
 * Path segments percent-encoded (`a b/ü.mjs` → `a%20b/%C3%BC.mjs`). A colon stays in an absolute
 * path (`/C:/repo`); in a relative one it is encoded, so a first segment cannot read as a scheme.
 */
function encodePath(path: string, absolute: boolean): string {
    const encoded = wellFormed(path)
        .split('/')
        .map((segment) => encodeURIComponent(segment))
        .join('/')
    return absolute ? encoded.replace(/%3A/g, ':') : encoded
}

/** A URI as given, with characters a URI cannot hold percent-encoded. */
function encodeUri(uri: string): string {
    return wellFormed(uri)
        .replace(/%(?![0-9A-Fa-f]{2})/g, '%25')
        .replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu, (c) => encodeURIComponent(c))
}

function decoded(text: string): string | null {
    try {
        return decodeURIComponent(text)
    } catch {
        return null
    }
}

/**
 * The artifact location of a file as the host named it: a relative path becomes a relative URI with
 * forward slashes under `SRCROOT`; an absolute path becomes a `file:` URI, or a relative one when it
 * lies under a `file:` base URI; a URI stays as it is.
 */
function artifactOf(file: string, baseUri: string | null): { uri: string; uriBaseId?: string } {
    const path = file.replace(/\\/g, '/')
    if (/^[A-Za-z][A-Za-z0-9+.-]+:/.test(path)) return { uri: encodeUri(path) }
    const drive = /^[A-Za-z]:\//.test(path)
    if (path.startsWith('/') || drive) {
        const absolute = drive ? `/${path}` : path
        const basePath = baseUri?.startsWith('file://')
            ? decoded(baseUri.slice('file://'.length).replace(/^[^/]*/, ''))
            : null
        if (basePath !== null && absolute.startsWith(basePath) && absolute.length > basePath.length) {
            return { uri: encodePath(absolute.slice(basePath.length), false), uriBaseId: SARIF_SOURCE_ROOT }
        }
        return {
            uri: absolute.startsWith('//')
                ? `file:${encodePath(absolute, true)}`
                : `file://${encodePath(absolute, true)}`
        }
    }
    return { uri: encodePath(path.replace(/^(\.\/)+/, ''), false), uriBaseId: SARIF_SOURCE_ROOT }
}

/** The stable fingerprint of an item: what it is and where in `main`, never its line. */
function fingerprintOf(code: string, schemaId: string, pointer: string): string {
    return bytesToHex(sha256(utf8ToBytes(`${code}|${schemaId}|${pointer}`)))
}

/** The last reference token of a pointer, unescaped; the schema id for `''`. */
function lastToken(pointer: string, schemaId: string): string {
    if (pointer === '') return schemaId
    const token = pointer.slice(pointer.lastIndexOf('/') + 1)
    return token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token
}

/**
 * An item read into plain, checked fields (`null` with the issue when it is left out): a fix item's fields, with its
 * SARIF level in place of its severity, and its kind and cost when valid.
 */
type CheckedItem = Omit<FixItem, 'severity' | 'kind' | 'cost'> & {
    readonly kind?: FixItem['kind']
    readonly level: SarifLevel
    readonly cost?: number
}

interface Check {
    readonly field: string
    readonly expected: string
    readonly ok: (value: unknown) => boolean
}

const REQUIRED: readonly Check[] = [
    { field: 'schemaId', expected: 'a non-empty string', ok: (v) => typeof v === 'string' && v.length > 0 },
    {
        field: 'code',
        expected: `a non-empty string of at most ${MAX_NAME_LENGTH} characters`,
        ok: (v) => isNonEmpty(v, MAX_NAME_LENGTH)
    },
    {
        field: 'severity',
        expected: 'error, warning or info',
        ok: (v) => v === 'error' || v === 'warning' || v === 'info'
    },
    { field: 'message', expected: 'a string', ok: (v) => typeof v === 'string' },
    {
        field: 'pointer',
        expected: "a JSON Pointer ('' or starting with /)",
        ok: (v) => typeof v === 'string' && (v === '' || v.startsWith('/'))
    }
]

const isHint = (value: unknown): boolean =>
    isObject(value) &&
    typeof value.targetField === 'string' &&
    typeof value.suggestion === 'string' &&
    (PRIORITIES as readonly unknown[]).includes(value.priority)

const isRecording = (value: unknown): boolean =>
    isObject(value) &&
    Number.isInteger(value.testIndex) &&
    typeof value.method === 'string' &&
    typeof value.url === 'string' &&
    (value.command === null || typeof value.command === 'string')

/** A checked recording, copied field by field (nothing else the input object holds is written). */
const recordingOf = (value: Record<string, unknown>): StaleRecording => ({
    testIndex: value.testIndex as number,
    method: value.method as string,
    url: value.url as string,
    command: value.command as string | null
})

const OPTIONAL: readonly Check[] = [
    {
        field: 'file',
        expected: 'a non-empty string or null',
        ok: (v) => v === null || (typeof v === 'string' && v.length > 0)
    },
    {
        field: 'kind',
        expected: 'finding, answer or hint',
        ok: (v) => v === 'finding' || v === 'answer' || v === 'hint'
    },
    { field: 'line', expected: 'a positive integer or null', ok: (v) => v === null || isPositiveInteger(v) },
    { field: 'column', expected: 'a positive integer or null', ok: (v) => v === null || isPositiveInteger(v) },
    { field: 'cost', expected: 'a finite number', ok: (v) => typeof v === 'number' && Number.isFinite(v) },
    { field: 'unit', expected: 'a string', ok: (v) => typeof v === 'string' },
    { field: 'area', expected: 'a string', ok: (v) => typeof v === 'string' },
    { field: 'tool', expected: 'a string', ok: (v) => typeof v === 'string' },
    {
        field: 'score',
        expected: 'a finite number or a string',
        ok: (v) => (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'string'
    },
    { field: 'question', expected: 'a string', ok: (v) => typeof v === 'string' },
    { field: 'reasoning', expected: 'a string', ok: (v) => typeof v === 'string' },
    { field: 'hint', expected: '{ targetField, suggestion, priority }', ok: isHint },
    { field: 'placed', expected: 'target or unit', ok: (v) => v === 'target' || v === 'unit' },
    { field: 'recording', expected: '{ testIndex, method, url, command }', ok: isRecording }
]

/** The codes and wording of the argument checks: SRF-001 missing, SRF-002 wrong type. */
const SARIF_ARGS = { missing: 'SRF-001', mismatch: 'SRF-002', create: createIssue } as const
const SARIF_STYLE = { actual: 'type' } as const
const ITEMS = v.looseObject({ items: v.array(v.unknown(), says('an array of fix items')) })
const TOOL_TEXT = v.custom<string>(
    (text) => isNonEmpty(text, MAX_NAME_LENGTH),
    says({ expected: `a non-empty string of at most ${MAX_NAME_LENGTH} characters`, actual: 'value' })
)
const TOOL = v.looseObject({
    tool: v.optional(
        v.pipe(
            objectArg({ expected: '{ name, version, informationUri? }', actual: 'type' }),
            v.looseObject({
                name: TOOL_TEXT,
                version: TOOL_TEXT,
                informationUri: v.optional(
                    v.custom<string>(
                        (uri) => isAbsoluteUri(uri, false),
                        says({ expected: 'an absolute URI', actual: 'value' })
                    )
                )
            })
        )
    )
})

// The URIs are written as given (a wrong one is a value to fix, not a type).
const URIS = v.object({
    baseUri: v.optional(
        v.custom(
            (uri) => isAbsoluteUri(uri, true),
            says({ expected: 'an absolute URI ending with /', actual: 'value' })
        )
    ),
    docsUri: v.optional(
        v.custom(
            (uri) => isAbsoluteUri(uri, false),
            says({ expected: 'an absolute URI without a fragment', actual: 'value' })
        )
    )
})

/** Reads one item: the fields it must have, then the ones it may have (a wrong one is dropped, not the item). */
function checkItem(raw: unknown, index: number, report: (issue: Issue) => void): CheckedItem | null {
    if (!isObject(raw)) {
        report(createIssue('SRF-004', pointerOf('items', index), { index, actual: typeOfValue(raw) }))
        return null
    }
    // Each field read once, into a plain copy (define semantics: a `__proto__` key stays a key).
    const item: Record<string, unknown> = Object.fromEntries(Object.keys(raw).map((key) => [key, raw[key]]))
    for (const check of REQUIRED) {
        const value = item[check.field]
        if (!check.ok(value)) {
            report(
                createIssue('SRF-005', pointerOf('items', index, check.field), {
                    index,
                    field: check.field,
                    expected: check.expected,
                    actual: describeValue(value)
                })
            )
            return null
        }
    }
    const kept = new Map<string, unknown>()
    for (const check of OPTIONAL) {
        const value = item[check.field]
        if (value === undefined || !own(item, check.field)) continue
        if (check.ok(value)) kept.set(check.field, value)
        else
            report(
                createIssue('SRF-006', pointerOf('items', index, check.field), {
                    index,
                    field: check.field,
                    expected: check.expected,
                    actual: describeValue(value)
                })
            )
    }
    const text = (field: string): string | undefined => (kept.has(field) ? (kept.get(field) as string) : undefined)
    const hint = kept.get('hint') as Record<string, unknown> | undefined
    return {
        schemaId: item.schemaId as string,
        file: (kept.get('file') as string | null | undefined) ?? null,
        ...(kept.has('kind') ? { kind: kept.get('kind') as FixItem['kind'] } : {}),
        code: item.code as string,
        level: LEVELS[item.severity as Severity],
        message: item.message as string,
        pointer: item.pointer as string,
        line: (kept.get('line') as number | null | undefined) ?? null,
        column: (kept.get('column') as number | null | undefined) ?? null,
        ...(kept.has('cost') ? { cost: kept.get('cost') as number } : {}),
        ...(text('unit') !== undefined ? { unit: text('unit') as string } : {}),
        ...(text('area') !== undefined ? { area: text('area') as string } : {}),
        ...(text('tool') !== undefined ? { tool: text('tool') as string } : {}),
        ...(kept.has('score') ? { score: kept.get('score') as number | string } : {}),
        ...(text('question') !== undefined ? { question: text('question') as string } : {}),
        ...(text('reasoning') !== undefined ? { reasoning: text('reasoning') as string } : {}),
        ...(hint !== undefined
            ? {
                  hint: {
                      targetField: hint.targetField as string,
                      suggestion: hint.suggestion as string,
                      priority: hint.priority as ImprovementHint['priority']
                  }
              }
            : {}),
        ...(kept.has('placed') ? { placed: kept.get('placed') as 'target' | 'unit' } : {}),
        ...(kept.has('recording') ? { recording: recordingOf(kept.get('recording') as Record<string, unknown>) } : {})
    }
}

let questionIndex: ReadonlyMap<string, AreaQuestion> | null = null

function questionOf(id: string): AreaQuestion | null {
    questionIndex ??= new Map(QUESTIONS.map((q) => [q.id, q]))
    return questionIndex.get(id) ?? null
}

function catalogueEntry(code: string): ErrorCodeDefinition | null {
    return own(CATALOGUE, code) ? ((CATALOGUE as Record<string, ErrorCodeDefinition>)[code] ?? null) : null
}

/** How a placeholder reads in a rule's text, which speaks of every result at once. */
const GENERIC_WORDS: Readonly<Record<string, string>> = {
    value: 'the value',
    expected: 'the accepted values',
    actual: 'the value given',
    detail: 'the details',
    count: 'a number of',
    index: 'one',
    line: 'a line',
    limit: 'the limit',
    max: 'the maximum',
    min: 'the minimum',
    path: 'the path'
}

/**
 * A catalogue template or question phrased for a rule, with no `{placeholder}` left: `Tool {tool}`
 * reads `The tool`, any other `{name}` reads `the name` (a few as their meaning: `{expected}` the
 * accepted values); the results' messages carry the actual values.
 */
export function genericText(template: string): string {
    return template
        .replace(/\b([A-Za-z]+) \{([A-Za-z0-9_]+)\}/g, (whole, word: string, name: string) =>
            word.toLowerCase() === name.toLowerCase()
                ? `${word[0] === word[0]?.toUpperCase() ? 'The' : 'the'} ${word.toLowerCase()}`
                : whole
        )
        .replace(
            /\{([A-Za-z0-9_]+)\}/g,
            (_whole, name: string) =>
                GENERIC_WORDS[name] ?? `the ${name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`
        )
}

/**
 * The rule of one code: its catalogue row, its question, or (neither) the code alone; `level` is the most severe of its
 * items.
 */
function ruleOf(code: string, level: SarifLevel, docsUri: string | null): SarifRule {
    const entry = catalogueEntry(code)
    if (entry !== null) {
        const prefix = code.split('-')[0] ?? code
        const text = genericText(entry.template)
        return {
            id: code,
            shortDescription: { text },
            fullDescription: { text: `${text} (${entry.rule})` },
            help: {
                text: `${code}: ${text}. Rule: ${entry.rule}. Each result's message names the values it is about. Listed in the error catalogue, docs/errors.md, section ${prefix}.`
            },
            ...(docsUri !== null ? { helpUri: `${docsUri}#${prefix.toLowerCase()}` } : {}),
            defaultConfiguration: { level: LEVELS[entry.severity] },
            properties: { tags: ['flowmcp-grading', 'finding'], rule: entry.rule }
        }
    }
    const question = questionOf(code)
    if (question !== null) {
        const asked = genericText(question.question)
        return {
            id: code,
            shortDescription: { text: asked },
            fullDescription: {
                text: `${asked} (area ${question.area}, dimension ${question.dimension}, weight ${question.weight})`
            },
            help: { text: `The judge is asked: ${asked} What it checks: ${genericText(question.evaluatorTask)}` },
            defaultConfiguration: { level },
            properties: {
                tags: ['flowmcp-grading', 'question', question.area],
                area: question.area,
                dimension: question.dimension,
                weight: question.weight
            }
        }
    }
    if (code.startsWith('HINT-')) {
        const area = code.slice('HINT-'.length)
        return {
            id: code,
            shortDescription: { text: `An improvement hint of the ${area} grading` },
            fullDescription: {
                text: `An improvement hint the grader of the ${area} area gave, placed at the field it names (or at its tool or area when the source does not have that field)`
            },
            help: {
                text: `${code}: the grader of the ${area} area suggests a change; the result's message is the suggestion, and says so when the field it names is not in the source.`
            },
            defaultConfiguration: { level },
            properties: { tags: ['flowmcp-grading', 'hint', area] }
        }
    }
    const extra = own(EXTRA_QUESTION_TEXTS, code) ? EXTRA_QUESTION_TEXTS[code] : undefined
    if (extra !== undefined) {
        return {
            id: code,
            shortDescription: { text: extra },
            fullDescription: { text: `${extra} (answered by the deterministic checks)` },
            help: { text: `${code}: ${extra} The result messages say what lowered the answer.` },
            defaultConfiguration: { level },
            properties: { tags: ['flowmcp-grading', 'question'] }
        }
    }
    return {
        id: code,
        shortDescription: { text: code },
        fullDescription: {
            text: `${code}: not in the error catalogue or the question catalogue of flowmcp-grading ${PACKAGE_VERSION}`
        },
        help: { text: `${code}: the result messages say what is wrong.` },
        defaultConfiguration: { level },
        properties: { tags: ['flowmcp-grading'] }
    }
}

function resultOf(item: CheckedItem, ruleIndex: number, baseUri: string | null): SarifResult {
    const region =
        item.line !== null
            ? { startLine: item.line, ...(item.column !== null ? { startColumn: item.column } : {}) }
            : null
    const logical = {
        name: lastToken(item.pointer, item.schemaId),
        fullyQualifiedName: `${item.schemaId}#${item.pointer}`
    }
    const location =
        item.file !== null
            ? {
                  physicalLocation: {
                      artifactLocation: artifactOf(item.file, baseUri),
                      ...(region !== null ? { region } : {})
                  },
                  logicalLocations: [logical]
              }
            : { logicalLocations: [logical] }
    return {
        ruleId: item.code,
        ruleIndex,
        level: item.level,
        // The message whole, and the tool it is about (the same words as the CLI's fix line).
        message: { text: withTool(item.message.length > 0 ? item.message : item.code, item.tool) },
        locations: [location],
        partialFingerprints: { [SARIF_FINGERPRINT_KEY]: fingerprintOf(item.code, item.schemaId, item.pointer) },
        properties: {
            schemaId: item.schemaId,
            pointer: item.pointer,
            ...definedFields({
                kind: item.kind,
                cost: item.cost,
                score: item.score,
                unit: item.unit,
                area: item.area,
                tool: item.tool,
                question: item.question,
                reasoning: item.reasoning,
                hint: item.hint,
                placed: item.placed,
                recording: item.recording
            }),
            ...(item.kind !== undefined &&
            isEnvironmentItem({
                kind: item.kind,
                code: item.code,
                ...definedFields({ unit: item.unit })
            })
                ? { notTestedHere: true as const }
                : {})
        }
    }
}

/**
 * The tool named in the log: the caller's `{ name, version, informationUri? }` once it checks out,
 * else this package. Appends to `errors`; the caller's tool is taken only when no argument failed so far.
 */
function checkTool(tool: unknown, errors: Issue[]): SarifTool {
    const ownTool: SarifTool = { name: 'flowmcp-grading', version: PACKAGE_VERSION }
    const given = parseArgs(TOOL, { tool }, SARIF_ARGS, SARIF_STYLE)
    errors.push(...given.errors)
    const caller = given.value?.tool
    if (caller === undefined || errors.length > 0) return ownTool
    return definedFields({ name: caller.name, version: caller.version, informationUri: caller.informationUri })
}

/** The checked arguments, or the issues that keep a log from being written. */
function checkArgs(
    input: Record<string, unknown>
):
    | { tool: SarifTool; baseUri: string | null; docsUri: string | null; items: readonly unknown[] }
    | { errors: Issue[] } {
    const errors: Issue[] = []
    const { items, tool, baseUri, docsUri } = input
    const list = parseArgs(ITEMS, { items }, SARIF_ARGS, SARIF_STYLE)
    errors.push(...list.errors)
    // The most items a log takes has a code of its own (SRF-003): a limit, not the argument's type.
    if (Array.isArray(items) && items.length > MAX_SARIF_ITEMS)
        errors.push(createIssue('SRF-003', '/items', { max: MAX_SARIF_ITEMS, count: items.length }))
    const checkedTool = checkTool(tool, errors)
    errors.push(...parseArgs(URIS, { baseUri, docsUri }, SARIF_ARGS).errors)
    if (errors.length > 0) return { errors }
    return {
        tool: checkedTool,
        baseUri: (baseUri as string | undefined) ?? null,
        docsUri: (docsUri as string | undefined) ?? null,
        items: items as readonly unknown[]
    }
}

/**
 * SARIF 2.1.0 output of fix items (OASIS Static Analysis Results Interchange Format), for code
 * hosts and editors that show findings at their lines.
 */
class SarifUnguarded {
    private constructor() {}

    /**
     * Writes fix items as a SARIF 2.1.0 log with one run: one result per item (`ruleId` the issue code or question id,
     * `level` from the severity, `info` → `note`; the file as a relative URI under `SRCROOT` or an absolute `file:`
     * URI; the line and column as the region when known; the JSON Pointer as a logical location `<schemaId>#<pointer>`;
     * a `flowmcpGrading/v1` partial fingerprint, the sha-256 of `code|schemaId|pointer`, which a moved line does not
     * change; cost, score, unit, area, tool, question, reasoning, hint and placed as properties; the message whole,
     * naming its tool) and one rule per distinct code, sorted, described from the error catalogue or the question
     * catalogue. The same items always give the same log. An item that is not a fix item is left out with a warning;
     * the rest are still written.
     * @param input - `{ items, tool?, baseUri?, docsUri? }`
     * @returns `{ log, errors }`; `log` is `null` for SRF-001 missing argument, SRF-002 wrong argument,
     *   SRF-003 too many items; SRF-004/SRF-005 an item left out, SRF-006 a field left out, SRF-007 more
     *   of those than are listed (warnings)
     * @example Sarif.fromFixItems({ items: [] }).log?.runs[0].results // []
     */
    static fromFixItems(input: SarifInput): SarifFromFixItemsResult {
        if (!isObject(input)) return { log: null, errors: [createIssue('SRF-001', '/items', { field: 'items' })] }
        const args = checkArgs(input as unknown as Record<string, unknown>)
        if ('errors' in args) return { log: null, errors: args.errors }
        const errors: Issue[] = []
        let unlisted = 0
        const report = (issue: Issue): void => {
            if (errors.length < MAX_ITEM_ISSUES) errors.push(issue)
            else unlisted += 1
        }
        const checked: CheckedItem[] = []
        args.items.forEach((raw, index) => {
            let item: CheckedItem | null
            try {
                item = checkItem(raw, index, report)
            } catch {
                // A nested getter or Proxy that throws: the item cannot be read, the others still can.
                report(createIssue('SRF-004', pointerOf('items', index), { index, actual: 'an unreadable value' }))
                item = null
            }
            if (item !== null) checked.push(item)
        })
        if (unlisted > 0) errors.push(createIssue('SRF-007', '/items', { count: unlisted, max: MAX_ITEM_ISSUES }))
        const levels = new Map<string, SarifLevel>()
        for (const item of checked) {
            const seen = levels.get(item.code)
            if (seen === undefined || LEVEL_RANK[item.level] > LEVEL_RANK[seen]) levels.set(item.code, item.level)
        }
        const codes = [...levels.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        const rules = codes.map((code) => ruleOf(code, levels.get(code) as SarifLevel, args.docsUri))
        const ruleIndex = new Map(codes.map((code, i) => [code, i]))
        const results = checked.map((item) => resultOf(item, ruleIndex.get(item.code) as number, args.baseUri))
        const driver = {
            name: args.tool.name,
            version: args.tool.version,
            ...definedFields({ informationUri: args.tool.informationUri }),
            rules
        }
        const run: SarifRun = {
            tool: { driver },
            ...(args.baseUri !== null ? { originalUriBaseIds: { [SARIF_SOURCE_ROOT]: { uri: args.baseUri } } } : {}),
            columnKind: 'utf16CodeUnits',
            results
        }
        return { log: { $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: [run] }, errors }
    }
}

/**
 * The public Sarif: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const Sarif = /* @__PURE__ */ guardStatics(SarifUnguarded, 'Sarif')
