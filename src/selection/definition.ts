import * as v from 'valibot'
import { SEVERITY } from '../model/constants.js'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { NAME_PATTERNS } from '../store/paths.js'
import { parseSnapshotFilename } from '../naming/snapshot-filename.js'
import { splitSchemaId } from '../rollup/build-selection.js'
import { OVERRIDE_KEYS } from '../rollup/lock-snapshot.js'
import { FLOWMCP_VERSION_REGEX } from '../version.js'
import { isObject } from '../model/object.js'
import { guardStatics } from '../errors/guard.js'
import { objectArg, parseArgs, says } from '../validation/args.js'

type Obj = Record<string, unknown>

/** Most selection skills a selection may carry (Schemas-Spec SKL018, 02-areas §11.1). */
export const MAX_SELECTION_SKILLS = 4
/** Shortest allowed selection description (chapter 16). */
export const MIN_SELECTION_DESCRIPTION = 10

/** A chapter 16 `selection.json` (Grading 2.0, 03 §13.2 ⚠ C24). */
export interface SelectionDefinitionDocument {
    readonly selectionId: string
    readonly namespace: string
    readonly name: string
    readonly version: string
    readonly description: string
    readonly whenToUse: string
    readonly personaIds: readonly string[]
    readonly members: ReadonlyArray<{
        readonly schemaId: string
        readonly override?: { readonly name?: string; readonly description?: string } | null
    }>
    readonly skills: ReadonlyArray<{ readonly file: string }>
    readonly resources?: readonly unknown[]
    readonly prompts?: readonly unknown[]
}

const NAMESPACE_PATTERN = /^[a-z0-9_-]+$/
const KNOWN_FIELDS = new Set([
    'selectionId',
    'namespace',
    'name',
    'version',
    'description',
    'whenToUse',
    'personaIds',
    'members',
    'skills',
    'resources',
    'prompts'
])
// Derived by the island (snapshot name, lockSnapshot); a definition that carries them would hash itself.
const DERIVED_FIELDS = ['selectionHash', 'aboutHash', 'selectionVersion'] as const
const SKILL_FILE = /^skills\/([^/]+)\/([^/]+)$/

function looksLikePrimitive(d: Obj): boolean {
    return (
        !('members' in d) &&
        !('selectionId' in d) &&
        ['tools', 'skills', 'resources', 'prompts'].some((k) => Array.isArray(d[k]))
    )
}

/** The codes and wording of every argument check of this module (SEL-001 missing, SEL-002 wrong type). */
const ARGS = { missing: 'SEL-001', mismatch: 'SEL-002', create: createIssue } as const
const STYLE = { field: 'indexed', actual: 'type', missing: 'keys' } as const

/** A required text: absent, `null` or blank is missing (SEL-001), any other non-string a wrong type (SEL-002). */
const TEXT = v.pipe(
    v.unknown(),
    v.transform((value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value)),
    v.string()
)
const LIST = v.array(v.unknown(), says('array'))
const PERSONA_IDS = v.looseObject({
    personaIds: v.array(v.custom<string>((p) => typeof p === 'string' && p.length > 0, says('non-empty string')))
})
// An `undefined` definition is a wrong type here, not a missing field: the callers say where it is missing.
const DEFINITION = objectArg({ expected: 'object', actual: 'type', field: 'selection definition', missing: false })

function checkString(d: Obj, field: string, errors: Issue[]): string | null {
    const parsed = parseArgs(v.looseObject({ [field]: TEXT }), d, ARGS, STYLE)
    errors.push(...parsed.errors)
    return parsed.value?.[field] ?? null
}

function checkPattern(value: string | null, field: string, pattern: RegExp, label: string, errors: Issue[]): void {
    if (value !== null && !pattern.test(value))
        errors.push(createIssue('SEL-003', pointer(field), { field, value: describeValue(value), pattern: label }))
}

function checkArray(d: Obj, field: string, min: number, required: boolean, errors: Issue[]): unknown[] | null {
    const parsed = parseArgs(v.looseObject({ [field]: required ? LIST : v.optional(LIST) }), d, ARGS, STYLE)
    errors.push(...parsed.errors)
    const value = parsed.value?.[field]
    if (value === undefined) return null
    // The least count has a code of its own (SEL-005): a rule of the field table, not the argument's type.
    if (value.length < min) errors.push(createIssue('SEL-005', pointer(field), { field, min, count: value.length }))
    return value
}

function checkMembers(list: unknown[], errors: Issue[]): void {
    const seen = new Set<string>()
    list.forEach((item, i) => {
        const at = pointer('members', i)
        if (!isObject(item)) {
            errors.push(
                createIssue('SEL-006', at, { index: i, detail: `expected { schemaId }, got ${typeOfValue(item)}` })
            )
            return
        }
        for (const key of Object.keys(item)) {
            if (key !== 'schemaId' && key !== 'override')
                errors.push(
                    createIssue('SEL-006', pointer('members', i, key), {
                        index: i,
                        detail: `unknown key ${key} (items are { schemaId })`
                    })
                )
        }
        const schemaId = item.schemaId
        if (typeof schemaId !== 'string') {
            errors.push(
                createIssue('SEL-006', pointer('members', i, 'schemaId'), {
                    index: i,
                    detail:
                        schemaId === undefined
                            ? 'schemaId is missing'
                            : `schemaId must be a string, got ${typeOfValue(schemaId)}`
                })
            )
            return
        }
        if (splitSchemaId(schemaId) === null) {
            errors.push(
                createIssue('SEL-006', pointer('members', i, 'schemaId'), {
                    index: i,
                    detail: `schemaId ${describeValue(schemaId)} is not <namespace>.<schema>`
                })
            )
            return
        }
        if (seen.has(schemaId)) errors.push(createIssue('SEL-010', at, { schemaId }))
        seen.add(schemaId)
        const override = item.override
        if (override === undefined || override === null) return
        const oat = pointer('members', i, 'override')
        if (!isObject(override)) {
            errors.push(
                createIssue('SEL-007', oat, {
                    schemaId,
                    detail: `expected an object or null, got ${typeOfValue(override)}`
                })
            )
            return
        }
        if (Object.keys(override).length === 0)
            errors.push(createIssue('SEL-007', oat, { schemaId, detail: 'an empty object (use null)' }))
        for (const [key, value] of Object.entries(override)) {
            if (!OVERRIDE_KEYS.includes(key))
                errors.push(
                    createIssue('SEL-007', pointer('members', i, 'override', key), {
                        schemaId,
                        detail: `forbidden key ${key} (allowed: ${OVERRIDE_KEYS.join(', ')})`
                    })
                )
            else if (typeof value !== 'string')
                errors.push(
                    createIssue('SEL-007', pointer('members', i, 'override', key), {
                        schemaId,
                        detail: `${key} must be a string, got ${typeOfValue(value)}`
                    })
                )
        }
    })
}

function checkSkills(list: unknown[], errors: Issue[]): void {
    if (list.length > MAX_SELECTION_SKILLS)
        errors.push(createIssue('SKL-018', pointer('skills'), { count: list.length, max: MAX_SELECTION_SKILLS }))
    list.forEach((item, i) => {
        const at = pointer('skills', i)
        if (!isObject(item) || typeof item.file !== 'string') {
            errors.push(
                createIssue('SEL-012', at, {
                    index: i,
                    detail: `expected { file: "skills/<skill>/<skill>--<ts>--<hash8>.mjs" }, got ${isObject(item) ? 'no file string' : typeOfValue(item)}`
                })
            )
            return
        }
        const m = SKILL_FILE.exec(item.file)
        const parts = m === null ? null : parseSnapshotFilename(m[2] as string)
        if (
            m === null ||
            parts === null ||
            parts.name !== m[1] ||
            parts.ext !== 'mjs' ||
            !NAME_PATTERNS.skill.test(m[1] as string)
        ) {
            errors.push(
                createIssue('SEL-012', pointer('skills', i, 'file'), {
                    index: i,
                    detail: `${describeValue(item.file)} is not skills/<skill>/<skill>--<ts>--<hash8>.mjs`
                })
            )
        }
    })
}

/**
 * Checks a Grading 2.0 selection definition against the chapter 16 field table with the digest's
 * resolution (03 §13.2 ⚠ C24). Collects every problem; paths are JSON Pointers into the definition.
 * @param input - the parsed `selection.json`
 * @param expectedSelectionId - the selection being graded; a definition for another selection is an error
 * @returns every issue found (SEL-*, SKL-018); the definition is usable when none is an error
 */
export function checkSelectionDefinition(input: unknown, expectedSelectionId?: string): Issue[] {
    const root = parseArgs(DEFINITION, input, ARGS, STYLE)
    if (root.value === null) return root.errors
    const definition = root.value
    const errors: Issue[] = []
    if (looksLikePrimitive(definition))
        return [
            createIssue('SEL-013', '', {
                detail: 'it has tools/skills/resources/prompts ids but no selectionId and no members; convert it with SelectionDefinition.fromPrimitive'
            })
        ]
    const selectionId = checkString(definition, 'selectionId', errors)
    checkPattern(selectionId, 'selectionId', NAME_PATTERNS.selection, '[a-z0-9-]+', errors)
    if (selectionId !== null && expectedSelectionId !== undefined && selectionId !== expectedSelectionId) {
        errors.push(
            createIssue('SEL-008', pointer('selectionId'), { actual: selectionId, expected: expectedSelectionId })
        )
    }
    checkPattern(checkString(definition, 'namespace', errors), 'namespace', NAMESPACE_PATTERN, '[a-z0-9_-]+', errors)
    checkString(definition, 'name', errors)
    checkPattern(checkString(definition, 'version', errors), 'version', FLOWMCP_VERSION_REGEX, 'flowmcp/4.x.y', errors)
    const description = checkString(definition, 'description', errors)
    if (description !== null && description.length < MIN_SELECTION_DESCRIPTION) {
        errors.push(
            createIssue('SEL-004', pointer('description'), {
                length: description.length,
                min: MIN_SELECTION_DESCRIPTION
            })
        )
    }
    checkString(definition, 'whenToUse', errors)
    if (checkArray(definition, 'personaIds', 1, true, errors) !== null)
        errors.push(...parseArgs(PERSONA_IDS, definition, ARGS, STYLE).errors)
    const members = checkArray(definition, 'members', 1, true, errors)
    if (members !== null) checkMembers(members, errors)
    const skills = checkArray(definition, 'skills', 0, true, errors)
    if (skills !== null) checkSkills(skills, errors)
    checkArray(definition, 'resources', 0, false, errors)
    checkArray(definition, 'prompts', 0, false, errors)
    for (const field of DERIVED_FIELDS)
        if (field in definition) errors.push(createIssue('SEL-009', pointer(field), { field }))
    for (const key of Object.keys(definition)) {
        if (!KNOWN_FIELDS.has(key) && !(DERIVED_FIELDS as readonly string[]).includes(key))
            errors.push(createIssue('SEL-011', pointer(key), { field: key }))
    }
    return errors
}

// The selection id first (a wrong one stops the check), then the definition, which must be given. A later stage
// checks the earlier keys again (they have passed by then) only to carry their types on.
const SELECTION_ID = v.looseObject({ selectionId: v.optional(v.string()) })
const VALIDATE_INPUT = v.pipe(
    objectArg(),
    SELECTION_ID,
    v.looseObject({ ...SELECTION_ID.entries, definition: v.custom<unknown>((d) => d !== undefined) })
)
// The first wrong one of input, primitive and toolSchemas stops the adapter (an absent toolSchemas is `{}`).
const PRIMITIVE = v.looseObject({ primitive: objectArg() })
const PRIMITIVE_INPUT = v.pipe(
    objectArg(),
    PRIMITIVE,
    v.looseObject({ ...PRIMITIVE.entries, toolSchemas: v.optional(objectArg()) })
)

/**
 * Selection definitions: the chapter 16 `selection.json` check and the adapter from the Schemas-Spec
 * v4.2.0 selection primitive (03 §13.2 ⚠ C24).
 */
class SelectionDefinitionUnguarded {
    private constructor() {}

    /**
     * Validates a selection definition before anything is graded or written: required fields and
     * patterns of the chapter 16 table (`selectionId`, `namespace`, `name`, `version` `flowmcp/4.x.y`,
     * `description` ≥ 10 characters, `whenToUse`, `personaIds` ≥ 1, `members` ≥ 1 as `{ schemaId }`,
     * `skills` ≤ 4 as `{ file }`), override keys, derived fields, and optionally the selection id.
     * @param input - `{ definition, selectionId? }`
     * @returns `{ valid, errors }`; SEL-001…SEL-013, SKL-018
     * @example SelectionDefinition.validate({ definition, selectionId: 'weather-core' }).valid // true
     */
    static validate(input: { definition?: unknown; selectionId?: unknown }): { valid: boolean; errors: Issue[] } {
        const parsed = parseArgs(VALIDATE_INPUT, input, ARGS, STYLE)
        if (parsed.value === null) return { valid: false, errors: parsed.errors }
        const { definition, selectionId } = parsed.value
        const errors = checkSelectionDefinition(definition, selectionId).map((i) => ({
            ...i,
            path: `/definition${i.path}`
        }))
        return { valid: !errors.some((e) => e.severity === SEVERITY.error), errors }
    }

    /**
     * Adapts a Schemas-Spec v4.2.0 selection primitive (`export const selection = { namespace, name,
     * version, description, whenToUse, tools[], skills[], resources[], prompts[] }`) to a 2.0
     * definition (03 ⚠ C24): `tools[]` ids become `members[].schemaId` through `toolSchemas` (the
     * `<ns>.<schema>` each tool id belongs to), de-duplicated in order; `name` becomes `selectionId`;
     * `version` is normalised to `flowmcp/x.y.z`. The result is then validated like any definition.
     * @param input - `{ primitive, toolSchemas, personaIds }`
     * @returns `{ definition, errors }`; `definition` is `null` when an error was found (SEL-*, SKL-018)
     * @example
     * SelectionDefinition.fromPrimitive({
     *     primitive,
     *     toolSchemas: { 'openmeteo/tool/getForecast': 'openmeteo.forecast' },
     *     personaIds: ['decision-maker']
     * })
     */
    static fromPrimitive(input: { primitive?: unknown; toolSchemas?: unknown; personaIds?: unknown }): {
        definition: SelectionDefinitionDocument | null
        errors: Issue[]
    } {
        const parsed = parseArgs(PRIMITIVE_INPUT, input, ARGS, STYLE)
        if (parsed.value === null) return { definition: null, errors: parsed.errors }
        const { primitive: p, toolSchemas: map = {} } = parsed.value
        const errors: Issue[] = []
        const members = toolMembers(Array.isArray(p.tools) ? p.tools : [], map, errors)
        checkUngradedPrimitives(p, errors)
        const version =
            typeof p.version === 'string' && /^4\.[0-9]+\.[0-9]+$/.test(p.version) ? `flowmcp/${p.version}` : p.version
        const draft: Obj = {
            selectionId: p.name,
            namespace: p.namespace,
            name: p.name,
            version,
            description: p.description,
            whenToUse: p.whenToUse,
            personaIds: parsed.value.personaIds,
            members: members.map((schemaId) => ({ schemaId })),
            skills: []
        }
        errors.push(...checkSelectionDefinition(draft).map((i) => ({ ...i, path: primitivePath(i.path) })))
        const valid = !errors.some((e) => e.severity === SEVERITY.error)
        return { definition: valid ? (draft as unknown as SelectionDefinitionDocument) : null, errors }
    }
}

/**
 * The public SelectionDefinition: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const SelectionDefinition = /* @__PURE__ */ guardStatics(SelectionDefinitionUnguarded, 'SelectionDefinition')

/** The primitive's tool ids as member schema ids, through `toolSchemas`, de-duplicated in order. */
function toolMembers(tools: unknown[], map: Obj, errors: Issue[]): string[] {
    const members: string[] = []
    tools.forEach((id: unknown, i) => {
        const at = pointer('primitive', 'tools', i)
        if (typeof id !== 'string' || !/^[a-z][a-z0-9-]*\/tool\/[^/]+$/.test(id)) {
            errors.push(
                createIssue('SEL-014', at, { value: describeValue(id), detail: 'not a <namespace>/tool/<name> id' })
            )
            return
        }
        const schemaId = Object.hasOwn(map, id) ? map[id] : undefined
        const sameNamespace = typeof schemaId === 'string' && schemaId.split('.')[0] === id.split('/')[0]
        if (typeof schemaId !== 'string' || splitSchemaId(schemaId) === null || !sameNamespace) {
            const detail =
                schemaId === undefined
                    ? 'toolSchemas does not resolve it'
                    : `toolSchemas gives ${describeValue(schemaId)}, not a <namespace>.<schema> of its namespace`
            errors.push(createIssue('SEL-014', at, { value: id, detail }))
            return
        }
        if (!members.includes(schemaId)) members.push(schemaId)
    })
    return members
}

/** Skills, resources and prompts of a primitive are not carried over; say so rather than drop them silently. */
function checkUngradedPrimitives(p: Obj, errors: Issue[]): void {
    for (const field of ['skills', 'resources', 'prompts'] as const) {
        if (field === 'skills' && Array.isArray(p.skills) && p.skills.length > MAX_SELECTION_SKILLS) {
            errors.push(
                createIssue('SKL-018', '/primitive/skills', { count: p.skills.length, max: MAX_SELECTION_SKILLS })
            )
        }
        if (!Array.isArray(p[field]) || (p[field] as unknown[]).length === 0) continue
        const detail =
            field === 'skills'
                ? 'selection skills are graded from their snapshot files (options.skills)'
                : 'unique primitives are not graded'
        errors.push(createIssue('SEL-015', pointer('primitive', field), { field, detail }))
    }
}

/** Where a definition issue points in the primitive the definition was drafted from. */
function primitivePath(path: string): string {
    if (path === '/selectionId') return '/primitive/name'
    if (path === '/members' || path.startsWith('/members/')) return '/primitive/tools'
    if (path === '/personaIds' || path.startsWith('/personaIds/')) return path
    return `/primitive${path}`
}
