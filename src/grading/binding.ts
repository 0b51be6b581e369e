/**
 * What ties an entry to what it grades: the facts a registry states about the object it holds
 * (`expect`), compared with the entry's own, and the gradingId's grammar read whole. Without these
 * a consistent rewrite of schemaId, schemaHash or gradingId passes every rule of the entry itself.
 * Pure and small: this module is part of the validate-only bundle; the re-check against a source
 * lives in `recheck.ts`, outside it.
 */
import { createEntryIssue } from '../errors/entry-issue.js'
import * as v from 'valibot'
import { describeValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { isObject } from '../model/object.js'
import { AREAS } from '../model/constants.js'
import { isIsoDateTime } from '../time.js'
import { objectArg, parseArgs, says, type ArgCodes } from '../validation/args.js'
import { describeId } from './visible.js'

type Obj = Record<string, unknown>

/** The facts a registry states about the object an entry must grade; each stated one must match. */
export interface EntryExpectation {
    /** The schema the registry files the entry under (`<namespace>.<file base>`). */
    readonly schemaId?: string
    /** The schema's 8-hex content hash as the registry computed it. */
    readonly schemaHash?: string
    /**
     * The schema module's text. The library reads it (never runs it), computes the schema hash itself and re-checks
     * every deterministic answer it can compute without a network (docs/registry.md).
     */
    readonly source?: string
    /** For a `single-test` entry: the tool it grades. */
    readonly tool?: string
    /** The area the registry files the entry under. */
    readonly area?: string
}

const FIELDS = ['schemaId', 'schemaHash', 'source', 'tool', 'area'] as const

// BND-008 for every finding, a wrong type as a wrong fact: with no `missing` code each one has field, expected, actual.
// validateGradingEntry's own options beside `expect` (maxClockSkewMs) are worded the same way.
export const BINDING_CODES: ArgCodes<'BND-008'> = { mismatch: 'BND-008', create: createEntryIssue }

const nonEmpty = v.optional(
    v.custom<string>(
        (x) => typeof x === 'string' && x.length > 0,
        says({ expected: 'a non-empty string', actual: 'type' })
    )
)

/** `expect` as a plain object whose stated facts are each a non-empty string. */
const EXPECT_OBJECT = objectArg({ expected: `an object of ${FIELDS.join(', ')}`, actual: 'type' })
const EXPECT_FACTS = v.looseObject(Object.fromEntries(FIELDS.map((key) => [key, nonEmpty])))
/** The form of a stated string, checked after the types (a value that is no string is reported there, once). */
const stringIn = (ok: (text: string) => boolean, expected: string) =>
    v.optional(v.custom<unknown>((x) => typeof x !== 'string' || ok(x), says({ expected, actual: 'value' })))
const EXPECT_FORMS = v.looseObject({
    schemaHash: stringIn((hash) => /^[a-f0-9]{8}$/.test(hash), '8 lowercase hex digits'),
    area: stringIn((area) => (AREAS as readonly string[]).includes(area), 'an area of the catalogue')
})

/**
 * `expect` checked: the stated facts, each a string, or the issues at `/expect`. The object, the types and the forms
 * (an 8-hex schemaHash, an area of the catalogue) are schemas; an unknown field is a rule of the closed key set,
 * checked by hand (its field is named through describeId).
 */
export function checkExpectation(expect: unknown): { expect: EntryExpectation | null; issues: Issue[] } {
    if (expect === undefined) return { expect: null, issues: [] }
    const object = parseArgs(EXPECT_OBJECT, expect, BINDING_CODES, { at: ['expect'] })
    if (!isObject(expect)) return { expect: null, issues: object.errors }
    const issues: Issue[] = []
    for (const key of Object.keys(expect)) {
        if (!(FIELDS as readonly string[]).includes(key))
            issues.push(
                createEntryIssue('BND-008', pointer('expect', key), {
                    field: `expect.${describeId(key)}`,
                    expected: `one of ${FIELDS.join(', ')}`,
                    actual: 'an unknown field'
                })
            )
    }
    issues.push(...parseArgs(EXPECT_FACTS, expect, BINDING_CODES, { at: ['expect'] }).errors)
    issues.push(...parseArgs(EXPECT_FORMS, expect, BINDING_CODES, { at: ['expect'] }).errors)
    return issues.length > 0 ? { expect: null, issues } : { expect: expect as EntryExpectation, issues }
}

/** Where an entry names a tool: an answer's evidence object with a `tool` field. */
function toolsNamed(entry: Obj): Array<{ path: string; tool: string }> {
    const out: Array<{ path: string; tool: string }> = []
    if (!Array.isArray(entry.gradings)) return out
    entry.gradings.forEach((g: unknown, i) => {
        if (isObject(g) && isObject(g.evidence) && typeof g.evidence.tool === 'string')
            out.push({ path: pointer('gradings', i, 'evidence', 'tool'), tool: g.evidence.tool })
    })
    return out
}

/**
 * Every stated fact compared with the entry's: schemaId (BND-001), schemaHash (BND-002, the one computed from the
 * source when there is one, else the stated one), area (BND-003), tool (BND-004). `computedHash` is the hash the
 * library computed from `expect.source`, `null` without a source.
 */
export function bindingIssues(entry: Obj, expect: EntryExpectation, computedHash: string | null): Issue[] {
    const issues: Issue[] = []
    if (expect.schemaId !== undefined && entry.schemaId !== expect.schemaId)
        issues.push(
            createEntryIssue('BND-001', '/schemaId', {
                found: describeValue(entry.schemaId),
                expected: describeId(expect.schemaId)
            })
        )
    const hashes: Array<{ hash: string; from: string }> = []
    if (computedHash !== null) hashes.push({ hash: computedHash, from: 'computed from expect.source' })
    if (expect.schemaHash !== undefined) hashes.push({ hash: expect.schemaHash, from: 'stated in expect.schemaHash' })
    // A stated hash that differs from the source's own is the registry's contradiction, reported once at /expect.
    if (computedHash !== null && expect.schemaHash !== undefined && computedHash !== expect.schemaHash)
        issues.push(
            createEntryIssue('BND-009', '/expect/schemaHash', { stated: expect.schemaHash, computed: computedHash })
        )
    const first = hashes[0]
    if (first !== undefined && entry.schemaHash !== first.hash)
        issues.push(
            createEntryIssue('BND-002', '/schemaHash', {
                found: describeValue(entry.schemaHash),
                expected: first.hash,
                from: first.from
            })
        )
    if (expect.area !== undefined && entry.area !== expect.area)
        issues.push(createEntryIssue('BND-003', '/area', { found: describeValue(entry.area), expected: expect.area }))
    issues.push(...toolIssues(entry, expect))
    return issues
}

/** A tool is only a single-test entry's fact; any tool its evidence names must be the expected one. */
function toolIssues(entry: Obj, expect: EntryExpectation): Issue[] {
    if (expect.tool === undefined) return []
    if (entry.area !== 'single-test')
        return [
            createEntryIssue('BND-004', '/area', {
                expected: describeId(expect.tool),
                detail: `the entry's area is ${describeValue(entry.area)}, and only a single-test entry grades one tool`
            })
        ]
    return toolsNamed(entry)
        .filter((t) => t.tool !== expect.tool)
        .map((t) =>
            createEntryIssue('BND-004', t.path, {
                expected: describeId(expect.tool as string),
                detail: `its evidence names tool ${describeId(t.tool)}`
            })
        )
}

/** `<schemaHash>--<stamp>`: the island's stamp, minute or second precision, optional milliseconds (03 ⚠ C4). */
const GRADING_ID = /^[a-f0-9]{8}--(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})(?:-(\d{2})(\.\d{1,3})?)?Z$/

/** The instant a gradingId's stamp names, or `null` when the id does not follow the grammar whole. */
export function gradingIdInstant(gradingId: string): number | null {
    const m = gradingId.length <= 64 ? GRADING_ID.exec(gradingId) : null
    if (m === null) return null
    const iso = `${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}${m[5] ?? ''}Z`
    return isIsoDateTime(iso) ? Date.parse(iso) : null
}

/** How far a gradingId's stamp may lie before the entry's newest answer: one day, as a run writes both at once. */
export const GRADING_ID_STAMP_WINDOW_MS = 86_400_000

/**
 * The gradingId read whole (01-model ⚠ A13: `<schemaHash>--<YYYY-MM-DDTHH-MM-SSZ>`): BND-006 when the part after
 * `--` is no real stamp, BND-007 when the stamp lies more than a day before the entry's newest answer (a stamp taken
 * from another grading). Warnings by default (the spec accepts any id on read), errors in strict mode.
 */
export function gradingIdGrammarIssues(entry: Obj): Issue[] {
    const id = entry.gradingId
    // A non-string or an id without `<hash>--` is the schema pattern's finding.
    if (typeof id !== 'string' || !/^[a-f0-9]{8}--/.test(id)) return []
    const instant = gradingIdInstant(id)
    if (instant === null) return [createEntryIssue('BND-006', '/gradingId', { value: describeId(describeValue(id)) })]
    const newest = newestAnswer(entry)
    if (newest === null || newest.ms - instant <= GRADING_ID_STAMP_WINDOW_MS) return []
    return [
        createEntryIssue('BND-007', '/gradingId', {
            value: id,
            timestamp: newest.timestamp,
            days: Math.floor((newest.ms - instant) / 86_400_000)
        })
    ]
}

function newestAnswer(entry: Obj): { ms: number; timestamp: string } | null {
    let best: { ms: number; timestamp: string } | null = null
    if (!Array.isArray(entry.gradings)) return null
    for (const g of entry.gradings as unknown[]) {
        if (!isObject(g) || typeof g.timestamp !== 'string') continue
        const ms = Date.parse(g.timestamp)
        if (!Number.isNaN(ms) && (best === null || ms > best.ms)) best = { ms, timestamp: g.timestamp }
    }
    return best
}
