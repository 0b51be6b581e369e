import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { HashGenerator } from '../hashing/hash-generator.js'
import { isArea } from '../areas/catalogue.js'
import { guardStatics } from '../errors/guard.js'
import { type ArgCodes, parseArgs, says } from '../validation/args.js'

/** `<slug>--<8 hex>`; the slug may itself contain `--`, the hash tail never does. */
export const TASK_ID_REGEX = /^(.+)--([0-9a-f]{8})$/

// Absent (or null): TID-001; wrong type: TID-002 with the value's type. Empty (TID-003) and an unknown area (TID-004)
// have codes of their own: plain checks after the schema.
const ARGS: ArgCodes<'TID-001' | 'TID-002'> = { missing: 'TID-001', mismatch: 'TID-002', create: createIssue }
const STYLE = { actual: 'type' } as const
const SLUG = v.object({ schemaIdSlug: v.string(says('string')) })
const AREAS = v.object({ areas: v.array(v.unknown(), says('array')) })
const AREA = v.string(says({ expected: 'string', missing: false }))
const TASK_ID = v.object({ taskId: v.string(says('string')) })

function checkSlug(slug: unknown): Issue[] {
    const given = parseArgs(SLUG, { schemaIdSlug: slug ?? undefined }, ARGS, STYLE)
    if (given.value === null) return given.errors
    if (given.value.schemaIdSlug.trim() === '')
        return [createIssue('TID-003', '/schemaIdSlug', { field: 'schemaIdSlug' })]
    return []
}

function areaSetHash(value: unknown): { hash: string | null; errors: Issue[] } {
    const given = parseArgs(AREAS, { areas: value ?? undefined }, ARGS, STYLE)
    if (given.value === null) return { hash: null, errors: given.errors }
    const areas = given.value.areas
    if (areas.length === 0) return { hash: null, errors: [createIssue('TID-003', '/areas', { field: 'areas' })] }
    const errors: Issue[] = []
    areas.forEach((a, i) => {
        // Item by item, so a wrong type and an unknown area keep the list's order.
        const item = parseArgs(AREA, a, ARGS, { ...STYLE, field: 'indexed', at: ['areas', i] })
        if (item.value === null) errors.push(...item.errors)
        else if (!isArea(item.value)) errors.push(createIssue('TID-004', `/areas/${i}`, { value: item.value }))
    })
    if (errors.length > 0) return { hash: null, errors }
    // Order and duplicates do not change the set, so they must not change the hash.
    const set = [...new Set(areas as string[])].sort()
    const h = HashGenerator.computeHash({ value: set })
    return h.short === null
        ? {
              hash: null,
              errors: [createIssue('TID-005', '/areas', { detail: h.errors.map((e) => e.message).join('; ') })]
          }
        : { hash: h.short, errors: [] }
}

/**
 * Task ids bind an emit to the set of areas it asked for (06 §19.4): `<slug>--<areaSetHash>`,
 * where the hash is the 8-hex canonical hash of the sorted, de-duplicated area list.
 */
class TaskIdUnguarded {
    private constructor() {}

    /**
     * Builds a task id.
     * @param input - `{ schemaIdSlug, areas }`; the slug is the emit target (`ns` or `ns/schema`)
     * @returns `{ taskId, areaSetHash, errors }`; TID-001 missing, TID-002 wrong type, TID-003 empty, TID-004 unknown
     *   area.
     * @example TaskId.generate({ schemaIdSlug: 'demoapi', areas: ['single-test'] }).taskId
     */
    static generate(input: { schemaIdSlug?: unknown; areas?: unknown }): {
        taskId: string | null
        areaSetHash: string | null
        errors: Issue[]
    } {
        const errors = checkSlug(input?.schemaIdSlug)
        const { hash, errors: areaErrors } = areaSetHash(input?.areas)
        errors.push(...areaErrors)
        if (errors.length > 0 || hash === null) return { taskId: null, areaSetHash: null, errors }
        return { taskId: `${input.schemaIdSlug as string}--${hash}`, areaSetHash: hash, errors }
    }

    /**
     * Splits a task id at its last `--`.
     * @param input - `{ taskId }`
     * @returns `{ schemaIdSlug, areaSetHash, errors }`; TID-001/002/003 for a missing, mistyped or empty id,
     *   TID-006 without `--`, TID-003 with an empty slug, TID-007 when the tail is not 8 hex.
     * @example TaskId.parse({ taskId: 'demoapi--1a2b3c4d' }).areaSetHash // '1a2b3c4d'
     */
    static parse(input: { taskId?: unknown }): {
        schemaIdSlug: string | null
        areaSetHash: string | null
        errors: Issue[]
    } {
        const none = (errors: Issue[]): { schemaIdSlug: null; areaSetHash: null; errors: Issue[] } => ({
            schemaIdSlug: null,
            areaSetHash: null,
            errors
        })
        const given = parseArgs(TASK_ID, { taskId: input?.taskId ?? undefined }, ARGS, STYLE)
        if (given.value === null) return none(given.errors)
        const id = given.value.taskId
        if (id === '') return none([createIssue('TID-003', '/taskId', { field: 'taskId' })])
        const cut = id.lastIndexOf('--')
        if (cut < 0) return none([createIssue('TID-006', '/taskId', { value: describeValue(id) })])
        const slug = id.slice(0, cut)
        const tail = id.slice(cut + 2)
        if (slug === '')
            return none([createIssue('TID-003', '/taskId', { field: `schemaIdSlug (in ${describeValue(id)})` })])
        if (!/^[0-9a-f]{8}$/.test(tail))
            return none([createIssue('TID-007', '/taskId', { value: describeValue(tail) })])
        return { schemaIdSlug: slug, areaSetHash: tail, errors: [] }
    }

    /**
     * Whether a task id was generated for exactly this set of areas (order and duplicates ignored).
     * @param input - `{ taskId, areas }`
     * @returns `{ ok, errors }`; the codes of {@link TaskId.parse} and {@link TaskId.generate}.
     * @example TaskId.matchesAreaSet({ taskId, areas: ['single-test'] }).ok
     */
    static matchesAreaSet(input: { taskId?: unknown; areas?: unknown }): { ok: boolean; errors: Issue[] } {
        const parsed = TaskId.parse(input ?? {})
        if (parsed.schemaIdSlug === null) return { ok: false, errors: parsed.errors }
        const regenerated = TaskId.generate({ schemaIdSlug: parsed.schemaIdSlug, areas: input.areas })
        if (regenerated.areaSetHash === null) return { ok: false, errors: regenerated.errors }
        return { ok: regenerated.areaSetHash === parsed.areaSetHash, errors: [] }
    }
}

/**
 * The public TaskId: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const TaskId = /* @__PURE__ */ guardStatics(TaskIdUnguarded, 'TaskId')
