import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { HashGenerator } from '../hashing/hash-generator.js'
import { isArea } from '../areas/catalogue.js'
import { guardStatics } from '../errors/guard.js'

/** `<slug>--<8 hex>`; the slug may itself contain `--`, the hash tail never does. */
export const TASK_ID_REGEX = /^(.+)--([0-9a-f]{8})$/

function checkSlug(slug: unknown): Issue[] {
    if (slug === undefined || slug === null) return [createIssue('TID-001', '/schemaIdSlug', { field: 'schemaIdSlug' })]
    if (typeof slug !== 'string')
        return [
            createIssue('TID-002', '/schemaIdSlug', {
                field: 'schemaIdSlug',
                expected: 'string',
                actual: typeOfValue(slug)
            })
        ]
    if (slug.trim() === '') return [createIssue('TID-003', '/schemaIdSlug', { field: 'schemaIdSlug' })]
    return []
}

function areaSetHash(areas: unknown): { hash: string | null; errors: Issue[] } {
    if (areas === undefined || areas === null)
        return { hash: null, errors: [createIssue('TID-001', '/areas', { field: 'areas' })] }
    if (!Array.isArray(areas))
        return {
            hash: null,
            errors: [
                createIssue('TID-002', '/areas', { field: 'areas', expected: 'array', actual: typeOfValue(areas) })
            ]
        }
    if (areas.length === 0) return { hash: null, errors: [createIssue('TID-003', '/areas', { field: 'areas' })] }
    const errors: Issue[] = []
    areas.forEach((a, i) => {
        if (typeof a !== 'string')
            errors.push(
                createIssue('TID-002', `/areas/${i}`, {
                    field: `areas[${i}]`,
                    expected: 'string',
                    actual: typeOfValue(a)
                })
            )
        else if (!isArea(a)) errors.push(createIssue('TID-004', `/areas/${i}`, { value: a }))
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
        const id = input?.taskId
        const none = (errors: Issue[]): { schemaIdSlug: null; areaSetHash: null; errors: Issue[] } => ({
            schemaIdSlug: null,
            areaSetHash: null,
            errors
        })
        if (id === undefined || id === null) return none([createIssue('TID-001', '/taskId', { field: 'taskId' })])
        if (typeof id !== 'string')
            return none([
                createIssue('TID-002', '/taskId', { field: 'taskId', expected: 'string', actual: typeOfValue(id) })
            ])
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
