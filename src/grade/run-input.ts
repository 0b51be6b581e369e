import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { HARNESSES } from '../model/constants.js'
import { judgeOptionIssues } from './judge-call.js'
import { isIsoDateTime } from '../time.js'
import { isBoundary } from '../injection/boundary.js'
import type { GradeOptionsBase, GradeSingleSchemaInput, GraderInput } from './types.js'
import { isObject } from '../model/object.js'
import { runIsland } from './run-island.js'
import { objectArg, parseArgs, says, wholeArg } from '../validation/args.js'

/** The options as read at run time: every field may be missing or wrong (the types cannot promise it). */
export type SchemaRunOptions = GradeOptionsBase

type Obj = Record<string, unknown>

// Derived from the catalogue constants, so built once; frozen, so the deterministic answers check it once.

/** A schema file's base: no folder, no `.mjs`/`.js`/`.json`. */
export function baseName(path: string): string {
    const name = path.replace(/\\/g, '/').split('/').pop() ?? path
    return name.replace(/\.(mjs|js|json)$/i, '')
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
        const values = parseArgs(PARAMS_RETURNED, option(keys), ARGS, { ...STYLE, at: ['options', 'serverParams'] })
        if (values.value !== null) return { ...values.value }
        errors.push(...values.errors)
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

/** The codes of every argument check of a run: an absent required field is GRA-001, a wrong one GRA-002. */
export const ARGS = { missing: 'GRA-001', mismatch: 'GRA-002', create: createIssue } as const
// A finding names the field by its own key (`llmModel`, not `grader.llmModel`), the value by its JSON type.
export const STYLE = { field: 'key', actual: 'type', missing: 'keys' } as const

const STRING_RECORD = v.pipe(objectArg(), v.record(v.string(), v.string()))
const PARAMS_RETURNED = wholeArg(STRING_RECORD, {
    expected: 'object of strings',
    actual: 'type',
    field: 'serverParams()',
    missing: false
})
const fn = () => v.optional(v.function(says('function')))
const withMethod = (name: string, expected: string) =>
    v.optional(wholeArg(v.pipe(objectArg(), v.looseObject({ [name]: v.function() })), { expected, actual: 'type' }))

const OPTIONS = v.looseObject({ options: v.optional(objectArg()) })
/** The options that are called: judge and sleep (the judge's limits follow), then the runtime and the loader. */
const CALLED = v.looseObject({ options: v.looseObject({ judge: fn(), sleep: fn() }) })
const RUNTIME = v.looseObject({
    options: v.looseObject({
        runtime: withMethod('run', '{ run(request) } (a RuntimePort)'),
        runtimeTools: v.optional(
            v.picklist(['handlers', 'all'], says({ expected: "'handlers' or 'all'", actual: 'value' }))
        ),
        trustedLoader: withMethod('load', '{ load(path) }')
    })
})
/** `options.boundary`, when given: `<PREFIX>-<16 hex>`, the marker a run's data blocks are fenced with. */
export const BOUNDARY_OPTION = v.optional(
    v.custom<string>(
        isBoundary,
        says({
            expected: 'a string like FLOWMCP-DATA-1a2b3c4d5e6f7a8b (^[A-Z][A-Z0-9-]{3,40}-[0-9a-f]{16}$)',
            actual: 'value'
        })
    )
)
const SKILL = v.looseObject({ name: v.string(), text: v.string() })
const SKILLS_WORDING = { expected: 'array of { name, text, skill? }', actual: 'type', field: 'skills' } as const
/** The options that are read: answers, server params, About, skills, root and the boundary. */
const READ = v.looseObject({
    options: v.looseObject({
        answers: v.optional(objectArg({ expected: 'object keyed by unit', actual: 'type' })),
        serverParams: v.optional(
            wholeArg(v.union([v.function(), STRING_RECORD]), {
                expected: 'object of strings or a function',
                actual: 'type'
            })
        ),
        // One issue per wrong option, never one per character or item.
        about: v.optional(
            wholeArg(v.pipe(objectArg(), v.looseObject({ text: v.string() })), {
                expected: '{ name?, text }',
                actual: 'type'
            })
        ),
        skills: v.optional(v.array(wholeArg(v.pipe(objectArg(), SKILL), SKILLS_WORDING), says(SKILLS_WORDING))),
        root: v.optional(v.string()),
        boundary: BOUNDARY_OPTION
    })
})

/** The options that are called: judge, sleep, the judge's limits, the runtime and the trusted loader. */
function callableOptionIssues(o: SchemaRunOptions): Issue[] {
    return [
        ...parseArgs(CALLED, { options: o }, ARGS, STYLE).errors,
        ...judgeOptionIssues(o as Readonly<Record<string, unknown>>),
        ...parseArgs(RUNTIME, { options: o }, ARGS, STYLE).errors
    ]
}

/** The options that are read: the island (fs with root), answers, server params, About, skills and the boundary. */
function dataOptionIssues(o: SchemaRunOptions): Issue[] {
    const errors: Issue[] = []
    // fs and root go together: a rule between two options, not the shape of one.
    if ((o.fs === undefined) !== (o.root === undefined)) {
        const field = o.fs === undefined ? 'fs (with root)' : 'root (with fs)'
        errors.push(createIssue('GRA-001', o.fs === undefined ? '/options/fs' : '/options/root', { field }))
    }
    // skills is reported once, at its first wrong item.
    const firstSkill = (e: Issue, i: number, all: Issue[]): boolean =>
        !e.path.startsWith('/options/skills/') || all.findIndex((x) => x.path.startsWith('/options/skills/')) === i
    errors.push(...parseArgs(READ, { options: o }, ARGS, STYLE).errors.filter(firstSkill))
    return errors
}

/** The options checked, their issues in `errors` in a fixed order (the called ones first); `{}` when not an object. */
function checkOptions(options: unknown, errors: Issue[]): SchemaRunOptions {
    const checked = parseArgs(OPTIONS, { options }, ARGS, STYLE)
    errors.push(...checked.errors)
    if (options === undefined || checked.value === null) return {}
    const o = options as SchemaRunOptions
    errors.push(...callableOptionIssues(o), ...dataOptionIssues(o))
    return o
}

const NAMED = { expected: 'non-empty string', missing: false } as const
const nonEmpty = () => v.custom<string>((x) => typeof x === 'string' && x.length > 0, says(NAMED))
const GRADER = v.looseObject({
    grader: v.pipe(
        objectArg({ expected: '{ name, version, llmModel, persona }', actual: 'type' }),
        // An absent name is the same mismatch as an empty one: the object's wording covers it.
        v.looseObject({ name: nonEmpty(), version: nonEmpty(), llmModel: nonEmpty() }, says(NAMED))
    )
})

const HARNESS = v.looseObject({
    grader: v.looseObject({
        harness: v.optional(v.picklist(HARNESSES, says({ expected: HARNESSES.join(' | '), actual: 'value' })))
    })
})

/** Checks the LLM grader identity; `needed` when a judge or answers will supply non-deterministic answers. */
export function checkGrader(grader: unknown, needed: boolean, errors: Issue[]): GraderInput | null {
    if (grader === undefined && !needed) return null
    errors.push(...parseArgs(GRADER, { grader }, ARGS, STYLE).errors)
    if (!isObject(grader)) return null
    // The persona rule has its own code (GRA-009): it holds only when answers are not the script's.
    if (needed && !isObject(grader.persona))
        errors.push(
            createIssue('GRA-009', '/grader/persona', {
                detail: 'grader.persona is required when a judge or answers supply non-deterministic answers'
            })
        )
    errors.push(...parseArgs(HARNESS, { grader }, ARGS, STYLE).errors)
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

const BOUNDARY = v.looseObject({ options: v.looseObject({ boundary: BOUNDARY_OPTION }) })

/** GRA-002 for an `options.boundary` that is not `<PREFIX>-<16 hex>`. */
export function boundaryIssues(options: unknown): Issue[] {
    return parseArgs(BOUNDARY, { options }, ARGS, STYLE).errors
}

const NAMES = v.looseObject({ schemaId: v.optional(v.string()), fileName: v.optional(v.string()) })

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
    errors.push(...parseArgs(NAMES, input, ARGS, STYLE).errors)
    if (errors.length > 0 || now === null) return null
    return { island, answersGiven, grader, now }
}
