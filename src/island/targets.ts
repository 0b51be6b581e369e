import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { AREAS, type Area } from '../model/constants.js'
import { checkName, LAYOUT, type NameKind } from '../store/paths.js'
import { objectArg, parseArgs } from '../validation/args.js'

/** The codes of the argument checks: ISL-001 missing, ISL-002 wrong type. */
const TARGET_ARGS = { missing: 'ISL-001', mismatch: 'ISL-002', create: createIssue } as const
const TARGET = objectArg()

/**
 * What a grading is about. Which fields an area needs follows 02-areas §1:
 * `single-test` { namespace, schema, tool } · `tools-aggregate-schema` { namespace, schema } ·
 * `tools-aggregate-namespace`, `namespace-description` { namespace } · `namespace-skills`
 * { namespace, schema, skill } · `about-namespace` { namespace, schema } (the schema holding the
 * About) · `about-selection`, `selection-aggregate` { selection } · `selection-skills-L1/L2/L3`
 * { selection, skill }. Any other field is a mismatch.
 */
export interface GradingTarget {
    readonly namespace?: string
    readonly schema?: string
    readonly tool?: string
    readonly skill?: string
    readonly selection?: string
}

/** The index a target rolls up into. */
export type TargetScope =
    | { readonly kind: 'namespace'; readonly namespace: string }
    | { readonly kind: 'selection'; readonly selection: string }

type Field = keyof GradingTarget
const KIND: Readonly<Record<Field, NameKind>> = {
    namespace: 'namespace',
    schema: 'schema',
    tool: 'tool',
    skill: 'skill',
    selection: 'selection'
}
const FIELDS: readonly Field[] = ['namespace', 'schema', 'tool', 'skill', 'selection']

/** Required target fields per area (02-areas §1). */
export const AREA_TARGET_FIELDS: Readonly<Record<Area, readonly Field[]>> = Object.freeze({
    'single-test': ['namespace', 'schema', 'tool'],
    'tools-aggregate-schema': ['namespace', 'schema'],
    'tools-aggregate-namespace': ['namespace'],
    'namespace-description': ['namespace'],
    'namespace-skills': ['namespace', 'schema', 'skill'],
    'about-namespace': ['namespace', 'schema'],
    'about-selection': ['selection'],
    'selection-skills-L1': ['selection', 'skill'],
    'selection-skills-L2': ['selection', 'skill'],
    'selection-skills-L3': ['selection', 'skill'],
    'selection-aggregate': ['selection']
})

/** Result of {@link gradingFolderFor}. */
export interface GradingFolder {
    /** Path segments of the `_gradings/` folder below the island root. */
    readonly segments: readonly string[] | null
    /** Path segments of the folder holding the index the grading rolls up into. */
    readonly indexSegments: readonly string[] | null
    readonly scope: TargetScope | null
    readonly errors: Issue[]
}

/**
 * Maps (area, target) to the `_gradings/` folder of 02-areas §1 and the index it rolls up into.
 * Pure; every name is checked (ISL-003/ISL-004) before it becomes a path segment.
 * @param input - `{ area, target }`
 * @returns `{ segments, indexSegments, scope, errors }`; GRD-033 unknown area, ISL-006 a missing or an
 *   extra target field, ISL-001…ISL-004 bad names
 * @example
 * gradingFolderFor({
 *     area: 'single-test',
 *     target: { namespace: 'defillama', schema: 'prices', tool: 'getFirstPrice' }
 * }).segments
 */
export function gradingFolderFor(input: { area?: unknown; target?: unknown }): GradingFolder {
    const fail = (errors: Issue[]): GradingFolder => ({ segments: null, indexSegments: null, scope: null, errors })
    const area = input?.area
    const target = input?.target
    if (typeof area !== 'string' || !(AREAS as readonly string[]).includes(area))
        return fail([createIssue('GRD-033', '/area', { value: describeValue(area) })])
    // The area was checked above: an unknown one has a code of its own (GRD-033), not an argument-type check.
    const { value: t, errors: shape } = parseArgs(TARGET, target, TARGET_ARGS, { at: ['target'] })
    if (t === null) return fail(shape)
    const required = AREA_TARGET_FIELDS[area as Area]
    const errors: Issue[] = []
    for (const key of Object.keys(t)) {
        if (!(FIELDS as readonly string[]).includes(key))
            errors.push(createIssue('ISL-006', `/target/${key}`, { area, detail: `unknown field ${key}` }))
        else if (!required.includes(key as Field) && t[key] !== undefined)
            errors.push(createIssue('ISL-006', `/target/${key}`, { area, detail: `${area} does not take a ${key}` }))
    }
    for (const field of required) {
        if (t[field] === undefined)
            errors.push(createIssue('ISL-006', `/target/${field}`, { area, detail: `${area} needs a ${field}` }))
        else {
            const bad = checkName(t[field], KIND[field], `/target/${field}`, field)
            if (bad !== null) errors.push(bad)
        }
    }
    if (errors.length > 0) return fail(errors)
    const v = t as Record<Field, string>
    const ns = [LAYOUT.providers, v.namespace]
    const sel = [LAYOUT.selections, v.selection]
    const g = LAYOUT.gradings
    const segmentsByArea: Readonly<Record<Area, () => string[]>> = {
        'single-test': () => [...ns, v.schema, LAYOUT.tools, v.tool, g],
        'tools-aggregate-schema': () => [...ns, v.schema, g],
        'tools-aggregate-namespace': () => [...ns, g],
        'namespace-description': () => [...ns, g],
        'namespace-skills': () => [...ns, v.schema, LAYOUT.skills, v.skill, g],
        'about-namespace': () => [...ns, v.schema, LAYOUT.resources, LAYOUT.about, g],
        'about-selection': () => [...sel, LAYOUT.resources, LAYOUT.about, g],
        'selection-skills-L1': () => [...sel, LAYOUT.skills, v.skill, g],
        'selection-skills-L2': () => [...sel, LAYOUT.skills, v.skill, g],
        'selection-skills-L3': () => [...sel, LAYOUT.skills, v.skill, g],
        'selection-aggregate': () => [...sel, g]
    }
    const provider = required.includes('namespace')
    return {
        segments: segmentsByArea[area as Area](),
        indexSegments: provider ? ns : sel,
        scope: provider ? { kind: 'namespace', namespace: v.namespace } : { kind: 'selection', selection: v.selection },
        errors: []
    }
}
