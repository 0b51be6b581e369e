import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { HARNESSES } from '../model/constants.js'
import { judgeOptionIssues } from './judge-call.js'
import { isIsoDateTime } from '../time.js'
import { isBoundary } from '../injection/boundary.js'
import type { GradeOptionsBase, GradeSingleSchemaInput, GraderInput } from './types.js'
import { isObject } from '../model/object.js'
import { runIsland } from './run-island.js'

/** The options as read at run time: every field may be missing or wrong (the types cannot promise it). */
export type SchemaRunOptions = GradeOptionsBase

type Obj = Record<string, unknown>

// Derived from the catalogue constants, so built once; frozen, so the deterministic answers check it once.

/** A schema file's base: no folder, no `.mjs`/`.js`/`.json`. */
export function baseName(path: string): string {
    const name = path.replace(/\\/g, '/').split('/').pop() ?? path
    return name.replace(/\.(mjs|js|json)$/i, '')
}

function isStringRecord(value: unknown): value is Record<string, string> {
    return isObject(value) && Object.values(value).every((v) => typeof v === 'string')
}

/** Resolves `options.serverParams` for the loaded schema's required keys. */
export function serverParamsFor(
    option: SchemaRunOptions['serverParams'],
    main: Obj,
    errors: Issue[]
): Record<string, string> {
    if (option === undefined) return {}
    if (typeof option !== 'function') return { ...option }
    const keys = Array.isArray(main.requiredServerParams)
        ? main.requiredServerParams.filter((k): k is string => typeof k === 'string')
        : []
    try {
        const values: unknown = option(keys)
        if (isStringRecord(values)) return { ...values }
        errors.push(
            createIssue('GRA-002', '/options/serverParams', {
                field: 'serverParams()',
                expected: 'object of strings',
                actual: typeOfValue(values)
            })
        )
    } catch (cause) {
        errors.push(
            createIssue('GRA-002', '/options/serverParams', {
                field: 'serverParams()',
                expected: 'a function that returns',
                actual: cause instanceof Error ? cause.name : 'a throw'
            })
        )
    }
    return {}
}

/** GRA-002 for an option of the wrong kind, at `/options/<field>`. */
function wrongOption(field: string, expected: string, actual: string): Issue {
    return createIssue('GRA-002', `/options/${field}`, { field, expected, actual })
}

/** The options that are called: judge, sleep, the judge's limits, the runtime and the trusted loader. */
function callableOptionIssues(o: SchemaRunOptions): Issue[] {
    const errors: Issue[] = []
    for (const key of ['judge', 'sleep'] as const) {
        if (o[key] !== undefined && typeof o[key] !== 'function') {
            errors.push(wrongOption(key, 'function', typeOfValue(o[key])))
        }
    }
    errors.push(...judgeOptionIssues(o as Readonly<Record<string, unknown>>))
    if (o.runtime !== undefined && !(isObject(o.runtime) && typeof o.runtime.run === 'function')) {
        errors.push(wrongOption('runtime', '{ run(request) } (a RuntimePort)', typeOfValue(o.runtime)))
    }
    if (o.runtimeTools !== undefined && o.runtimeTools !== 'handlers' && o.runtimeTools !== 'all') {
        errors.push(wrongOption('runtimeTools', "'handlers' or 'all'", describeValue(o.runtimeTools)))
    }
    if (o.trustedLoader !== undefined && !(isObject(o.trustedLoader) && typeof o.trustedLoader.load === 'function')) {
        errors.push(wrongOption('trustedLoader', '{ load(path) }', typeOfValue(o.trustedLoader)))
    }
    return errors
}

/** GRA-002 for `options.skills` that is not an array of `{ name, text }`: at the first wrong item, or at the option. */
function skillsIssue(skills: unknown): Issue | null {
    const bad = Array.isArray(skills)
        ? skills.findIndex((s: unknown) => !(isObject(s) && typeof s.name === 'string' && typeof s.text === 'string'))
        : -2
    if (bad === -1) return null
    return createIssue('GRA-002', bad >= 0 ? `/options/skills/${bad}` : '/options/skills', {
        field: 'skills',
        expected: 'array of { name, text, skill? }',
        actual: typeOfValue(bad >= 0 ? (skills as unknown[])[bad] : skills)
    })
}

/** The options that are read: the island (fs with root), answers, server params, About, skills and the boundary. */
function dataOptionIssues(o: SchemaRunOptions): Issue[] {
    const errors: Issue[] = []
    if ((o.fs === undefined) !== (o.root === undefined)) {
        const field = o.fs === undefined ? 'fs (with root)' : 'root (with fs)'
        errors.push(createIssue('GRA-001', o.fs === undefined ? '/options/fs' : '/options/root', { field }))
    }
    if (o.answers !== undefined && !isObject(o.answers)) {
        errors.push(wrongOption('answers', 'object keyed by unit', typeOfValue(o.answers)))
    }
    if (o.serverParams !== undefined && typeof o.serverParams !== 'function' && !isStringRecord(o.serverParams)) {
        errors.push(wrongOption('serverParams', 'object of strings or a function', typeOfValue(o.serverParams)))
    }
    // One issue per wrong option, never one per character or item.
    if (o.about !== undefined && !(isObject(o.about) && typeof o.about.text === 'string')) {
        errors.push(wrongOption('about', '{ name?, text }', typeOfValue(o.about)))
    }
    const skills = o.skills !== undefined ? skillsIssue(o.skills) : null
    if (skills !== null) errors.push(skills)
    if (o.root !== undefined && typeof o.root !== 'string') {
        errors.push(wrongOption('root', 'string', typeOfValue(o.root)))
    }
    if (o.boundary !== undefined && !isBoundary(o.boundary)) errors.push(boundaryIssue(o.boundary))
    return errors
}

/** The options checked, their issues in `errors` in a fixed order (the called ones first); `{}` when not an object. */
function checkOptions(options: unknown, errors: Issue[]): SchemaRunOptions {
    if (options === undefined) return {}
    if (!isObject(options)) {
        errors.push(
            createIssue('GRA-002', '/options', { field: 'options', expected: 'object', actual: typeOfValue(options) })
        )
        return {}
    }
    const o = options as SchemaRunOptions
    errors.push(...callableOptionIssues(o), ...dataOptionIssues(o))
    return o
}

/** Checks the LLM grader identity; `needed` when a judge or answers will supply non-deterministic answers. */
export function checkGrader(grader: unknown, needed: boolean, errors: Issue[]): GraderInput | null {
    if (grader === undefined && !needed) return null
    if (!isObject(grader)) {
        errors.push(
            createIssue(grader === undefined ? 'GRA-001' : 'GRA-002', '/grader', {
                field: 'grader',
                expected: '{ name, version, llmModel, persona }',
                actual: typeOfValue(grader)
            })
        )
        return null
    }
    for (const key of ['name', 'version', 'llmModel'] as const) {
        if (typeof grader[key] !== 'string' || (grader[key] as string).length === 0)
            errors.push(
                createIssue('GRA-002', `/grader/${key}`, {
                    field: key,
                    expected: 'non-empty string',
                    actual: typeOfValue(grader[key])
                })
            )
    }
    if (needed && !isObject(grader.persona))
        errors.push(
            createIssue('GRA-009', '/grader/persona', {
                detail: 'grader.persona is required when a judge or answers supply non-deterministic answers'
            })
        )
    if (grader.harness !== undefined && !(HARNESSES as readonly unknown[]).includes(grader.harness))
        errors.push(
            createIssue('GRA-002', '/grader/harness', {
                field: 'harness',
                expected: HARNESSES.join(' | '),
                actual: describeValue(grader.harness)
            })
        )
    return grader as unknown as GraderInput
}

/** The time of the run: `now`, else `clock.now()` (a throwing clock counts as none). */
export function nowOf(options: Pick<SchemaRunOptions, 'now' | 'clock'>, errors: Issue[]): string | null {
    let now: unknown = options.now
    if (now === undefined && options.clock !== undefined) {
        try {
            now = options.clock.now()
        } catch {
            now = undefined
        }
    }
    if (now === undefined) {
        errors.push(createIssue('GRA-001', '/options/now', { field: 'now (or clock)' }))
        return null
    }
    if (!isIsoDateTime(now)) {
        errors.push(createIssue('GRD-046', '/options/now', { value: describeValue(now) }))
        return null
    }
    return now
}

/** GRA-002 for an `options.boundary` that is not `<PREFIX>-<16 hex>`. */
export function boundaryIssue(value: unknown): Issue {
    return createIssue('GRA-002', '/options/boundary', {
        field: 'boundary',
        expected: 'a string like FLOWMCP-DATA-1a2b3c4d5e6f7a8b (^[A-Z][A-Z0-9-]{3,40}-[0-9a-f]{16}$)',
        actual: describeValue(value)
    })
}

/** The checked start of a run: the options on their island, who grades, and when. */
interface RunStart {
    readonly island: ReturnType<typeof runIsland<SchemaRunOptions>>
    readonly answersGiven: boolean
    readonly grader: GraderInput | null
    readonly now: string
}

/**
 * Stage "start": the options, the grader, the time and the id fields checked (their issues in `errors`); null when any
 * is wrong.
 */
export function startRun(input: GradeSingleSchemaInput, errors: Issue[]): RunStart | null {
    // Without a host island the run writes to a private in-memory one: the standing is read from files the same way.
    const island = runIsland(checkOptions(input.options, errors))
    const options = island.options
    const answersGiven = options.judge !== undefined || options.answers !== undefined
    const grader = checkGrader(input.grader, answersGiven, errors)
    const now = nowOf(options, errors)
    if (input.schemaId !== undefined && typeof input.schemaId !== 'string')
        errors.push(
            createIssue('GRA-002', '/schemaId', {
                field: 'schemaId',
                expected: 'string',
                actual: typeOfValue(input.schemaId)
            })
        )
    if (input.fileName !== undefined && typeof input.fileName !== 'string')
        errors.push(
            createIssue('GRA-002', '/fileName', {
                field: 'fileName',
                expected: 'string',
                actual: typeOfValue(input.fileName)
            })
        )
    if (errors.length > 0 || now === null) return null
    return { island, answersGiven, grader, now }
}
