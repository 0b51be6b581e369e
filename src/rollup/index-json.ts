import { AGGREGATE_GRADES } from '../model/grades.js'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import * as v from 'valibot'
import { nullAsMissing, objectArg, parseArgs } from '../validation/args.js'
import { joinPointer, pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { NODE_STATUS, FILE_TIMESTAMP_REGEX, NODE_STATUSES, ROLLUP_STATUSES } from '../model/constants.js'
import { validateIndexJson } from '../validation/validators.js'
import { isObject } from '../model/object.js'

/** Top-level key order of every index we write; other keys follow in code-unit order. */
export const INDEX_KEY_ORDER: readonly string[] = Object.freeze([
    'indexVersion',
    'namespace',
    'selectionId',
    'updatedAt',
    'status',
    'grade',
    'summary',
    'about',
    'description',
    'skills',
    'namespaceAggregate',
    'selectionAggregate',
    'schemas',
    'members',
    'blockers',
    'lockSnapshot'
])

const GRADES: readonly string[] = AGGREGATE_GRADES
/** Minute precision (`2026-05-31T12-30Z`), accepted on read only (03 ⚠ C4). */
const MINUTE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}Z$/

type Obj = Record<string, unknown>

/** Every node position of an index: `[pointer, node]`. */
function nodesOf(index: Obj): Array<[string, unknown]> {
    const out: Array<[string, unknown]> = []
    for (const key of ['about', 'description', 'namespaceAggregate', 'selectionAggregate']) {
        if (index[key] !== undefined) out.push([pointer(key), index[key]])
    }
    for (const map of ['skills', 'members']) {
        const m = index[map]
        if (isObject(m)) for (const [k, v] of Object.entries(m)) out.push([pointer(map, k), v])
    }
    if (isObject(index.schemas)) {
        for (const [s, node] of Object.entries(index.schemas)) {
            out.push([pointer('schemas', s), node])
            if (!isObject(node)) continue
            if (node.toolsAggregate !== undefined)
                out.push([pointer('schemas', s, 'toolsAggregate'), node.toolsAggregate])
            if (isObject(node.tools))
                for (const [t, tool] of Object.entries(node.tools)) out.push([pointer('schemas', s, 'tools', t), tool])
        }
    }
    return out
}

function strictIssues(index: Obj): Issue[] {
    const issues: Issue[] = []
    const rule = (path: string, detail: string): void => {
        issues.push(createIssue('IDX-028', path, { field: path || '(root)', detail }))
    }
    if (index.indexVersion !== 2)
        issues.push(createIssue('IDX-003', '/indexVersion', { value: describeValue(index.indexVersion) }))
    const hasNs = typeof index.namespace === 'string'
    const hasSel = typeof index.selectionId === 'string'
    if (hasNs === hasSel) rule('', 'exactly one of namespace and selectionId must be set')
    if (!(ROLLUP_STATUSES as readonly unknown[]).includes(index.status)) {
        issues.push(
            createIssue('IDX-007', '/status', {
                value: describeValue(index.status),
                field: 'status',
                expected: ROLLUP_STATUSES.join(', ')
            })
        )
    }
    if (typeof index.updatedAt !== 'string' || !FILE_TIMESTAMP_REGEX.test(index.updatedAt))
        rule('/updatedAt', 'must be YYYY-MM-DDTHH-MM-SSZ')
    if (index.grade !== undefined && !GRADES.includes(index.grade as string))
        rule('/grade', `grade ${describeValue(index.grade)} is not one of A–F, REJECTED`)
    for (const [at, node] of nodesOf(index)) {
        if (!isObject(node)) {
            rule(at, `node must be an object, got ${typeOfValue(node)}`)
            continue
        }
        if (!(NODE_STATUSES as readonly unknown[]).includes(node.status)) {
            issues.push(
                createIssue('IDX-007', joinPointer(at, 'status'), {
                    value: describeValue(node.status),
                    field: at,
                    expected: NODE_STATUSES.join(', ')
                })
            )
        }
        if (node.grade !== undefined && !GRADES.includes(node.grade as string))
            rule(joinPointer(at, 'grade'), `grade ${describeValue(node.grade)} is not one of A–F, REJECTED`)
        if (
            (node.status === NODE_STATUS.blocked || node.status === NODE_STATUS.pending) &&
            typeof node.reason !== 'string'
        )
            rule(joinPointer(at, 'reason'), `a ${String(node.status)} node needs a reason`)
        if (
            node.snapshot !== undefined &&
            !(
                isObject(node.snapshot) &&
                typeof node.snapshot.file === 'string' &&
                typeof node.snapshot.hash === 'string' &&
                /^[a-f0-9]{8}$/.test(node.snapshot.hash)
            )
        ) {
            rule(joinPointer(at, 'snapshot'), 'snapshot must be { file, hash } with an 8-hex hash')
        }
    }
    if (Array.isArray(index.blockers)) {
        index.blockers.forEach((b: unknown, i) => {
            if (!(isObject(b) && typeof b.node === 'string' && typeof b.reason === 'string'))
                rule(pointer('blockers', i), 'a blocker is { node, reason }')
        })
    }
    return issues
}

const INDEX_ARGS = { missing: 'IDX-001', mismatch: 'IDX-002', create: createIssue } as const
const INDEX_ARG = v.looseObject({ index: nullAsMissing(objectArg()) })

/**
 * Validates an index against the shipped `schemas/index.schema.json` (ajv 2020, `strict: false`,
 * 03 ⚠ C19) and, in `write` mode, against the stricter rules every index we write follows (03 §7.2):
 * `indexVersion` 2, exactly one of namespace/selectionId, full-second `updatedAt`, known statuses and
 * grades, a reason on blocked and pending nodes, `snapshot = { file, hash }`, `blockers` items `{ node, reason }`.
 * @param input - `{ index, mode? }`; `mode` `'write'` (default) or `'read'` (schema only, minute-precision `updatedAt`
 *   accepted)
 * @returns `{ valid, errors }`; IDX-001/IDX-002 for a missing or non-object index, IDX-011 schema violations,
 *   IDX-003/IDX-007/IDX-028 write rules
 * @example validateIndex({ index: JSON.parse(text), mode: 'read' }).valid
 */
export function validateIndex(input: { index?: unknown; mode?: 'write' | 'read' }): {
    valid: boolean
    errors: Issue[]
} {
    const checked = parseArgs(INDEX_ARG, { index: input?.index }, INDEX_ARGS)
    if (checked.value === null) return { valid: false, errors: checked.errors }
    const index = checked.value.index
    const validate = validateIndexJson
    validate(index)
    const errors: Issue[] = (validate.errors ?? []).map((e) =>
        createIssue('IDX-011', e.instancePath, {
            field: e.instancePath || '(root)',
            detail: `${e.keyword}: ${e.message ?? 'invalid'}`
        })
    )
    if (input.mode !== 'read') errors.push(...strictIssues(index))
    else if (
        index.updatedAt !== undefined &&
        !(
            typeof index.updatedAt === 'string' &&
            (FILE_TIMESTAMP_REGEX.test(index.updatedAt) ||
                MINUTE_TIMESTAMP.test(index.updatedAt) ||
                /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$/.test(index.updatedAt))
        )
    ) {
        errors.push(
            createIssue('IDX-028', '/updatedAt', { field: '/updatedAt', detail: 'must be an island timestamp' })
        )
    }
    return { valid: errors.length === 0, errors }
}

const isJsonSpace = (c: string | undefined): boolean => c === ' ' || c === '\n' || c === '\r' || c === '\t'

/** The first index at or after `i` that is not JSON whitespace. */
function skipSpace(text: string, i: number): number {
    while (i < text.length && isJsonSpace(text[i])) i += 1
    return i
}

/** The index after the string that opens at `i` (a `"`), or -1 when it never closes. */
function skipString(text: string, i: number): number {
    i += 1
    while (i < text.length) {
        const c = text[i]
        if (c === '\\') i += 2
        else if (c === '"') return i + 1
        else i += 1
    }
    return -1
}

/** The index after the object or array that opens at `i` (brackets counted outside strings), or -1. */
function skipContainer(text: string, i: number): number {
    let depth = 0
    while (i < text.length) {
        const c = text[i]
        if (c === '"') {
            i = skipString(text, i)
            if (i < 0) return -1
            continue
        }
        if (c === '{' || c === '[') depth += 1
        else if (c === '}' || c === ']') {
            depth -= 1
            if (depth === 0) return i + 1
        }
        i += 1
    }
    return -1
}

/** The index after the value at `i`: a string, a container, or a literal up to the next delimiter; -1 if cut off. */
function skipValue(text: string, i: number): number {
    if (text[i] === '"') return skipString(text, i)
    if (text[i] === '{' || text[i] === '[') return skipContainer(text, i)
    while (i < text.length && text[i] !== ',' && text[i] !== '}' && text[i] !== ']' && !isJsonSpace(text[i])) i += 1
    return i
}

/**
 * Finds the raw text of a top-level member's value in a JSON object text, or `null`. A scan, not
 * a parse: only the top-level keys are decoded, the values are skipped over.
 */
export function rawTopLevelValue(text: string, key: string): string | null {
    let i = skipSpace(text, 0)
    if (text[i] !== '{') return null
    i += 1
    let found: string | null = null
    for (;;) {
        i = skipSpace(text, i)
        if (text[i] === '}') return found
        if (text[i] !== '"') return null
        const keyStart = i
        i = skipString(text, i)
        if (i < 0) return null
        let name: unknown
        try {
            name = JSON.parse(text.slice(keyStart, i)) as unknown
        } catch {
            return null
        }
        i = skipSpace(text, i)
        if (text[i] !== ':') return null
        const valueStart = skipSpace(text, i + 1)
        i = skipValue(text, valueStart)
        if (i < 0) return null
        // The last duplicate wins, as in JSON.parse.
        if (name === key) found = text.slice(valueStart, i)
        i = skipSpace(text, i)
        if (text[i] === ',') i += 1
        else if (text[i] === '}') return found
        else return null
    }
}

function deepEqual(a: unknown, b: unknown): boolean {
    if (a === b) return true
    if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
    if (Array.isArray(a) !== Array.isArray(b)) return false
    if (Array.isArray(a))
        return a.length === (b as unknown[]).length && a.every((x, i) => deepEqual(x, (b as unknown[])[i]))
    const ka = Object.keys(a as Obj)
    const kb = Object.keys(b as Obj)
    return (
        ka.length === kb.length &&
        ka.every((k) => Object.hasOwn(b as Obj, k) && deepEqual((a as Obj)[k], (b as Obj)[k]))
    )
}

/**
 * Serialises an index: fixed top-level key order, 4-space indentation, trailing newline. When
 * `previousText` holds a `lockSnapshot` equal to the index's, its original bytes are reused, so the
 * frozen part survives every rebuild byte-for-byte (03 ⚠ C16) even if another tool formatted it.
 * @param input - `{ index, previousText? }`
 * @returns `{ text }`
 * @example serializeIndex({ index }).text.endsWith('}\n') // true
 */
export function serializeIndex(input: { index: object; previousText?: string | null }): { text: string } {
    const index = input.index as Obj
    const keys = [
        ...INDEX_KEY_ORDER.filter((k) => k !== 'lockSnapshot' && index[k] !== undefined),
        ...Object.keys(index)
            .filter((k) => !INDEX_KEY_ORDER.includes(k))
            .sort()
    ]
    const live = Object.fromEntries(keys.map((k) => [k, index[k]]))
    const text = JSON.stringify(live, null, 4)
    const lock = index.lockSnapshot
    if (lock === undefined) return { text: `${text}\n` }
    let raw: string | null = null
    if (typeof input.previousText === 'string') {
        const candidate = rawTopLevelValue(input.previousText, 'lockSnapshot')
        if (candidate !== null) {
            try {
                if (deepEqual(JSON.parse(candidate), lock)) raw = candidate
            } catch {
                raw = null
            }
        }
    }
    const lockText = raw ?? JSON.stringify(lock, null, 4).replace(/\n/g, '\n    ')
    const body = keys.length === 0 ? '{\n' : `${text.slice(0, -2)},\n`
    return { text: `${body}    "lockSnapshot": ${lockText}\n}\n` }
}
