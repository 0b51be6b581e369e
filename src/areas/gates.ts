import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { AREAS, type Area } from '../model/constants.js'
import { AREA_CATALOGUE, isArea, LEVEL_LADDER, type Level } from './catalogue.js'
import { isObject } from '../model/object.js'
import { objectArg, parseArgs, says, type ArgCodes } from '../validation/args.js'

/** The signals a gate decision needs, derived by the caller from the index (06 §19.3). */
export interface GateSignals {
    /** Lowest level over the namespace's schemas. */
    readonly namespaceLevel?: Level
    /** Whether some schema of the namespace declares an About resource whose file exists. */
    readonly aboutPresent?: boolean
    /** Lowest level over the selection's members. */
    readonly memberLevel?: Level
}

/** Result of {@link evaluateGates}: areas whose dependency holds, and the others with a reason. */
export interface GateResult {
    readonly ready: Area[]
    readonly gated: Array<{ readonly area: Area; readonly reason: string }>
    readonly errors: Issue[]
}

function rank(level: Level): number {
    return LEVEL_LADDER.indexOf(level)
}

function isLevel(value: unknown): value is Level {
    return typeof value === 'string' && (LEVEL_LADDER as readonly string[]).includes(value)
}

// ARE-003 for a wrong type; an unknown area id (ARE-001) and an unknown level (ARE-016) are the catalogue's rules,
// checked by hand between these schemas in the order the checks report.
const ARGS: ArgCodes<'ARE-003'> = { mismatch: 'ARE-003', create: createIssue }
const KEY_STYLE = { field: 'key', actual: 'type' } as const
const GATE_AREAS = v.object({
    areas: v.optional(v.custom<unknown[]>(Array.isArray, says({ expected: 'array of area ids', actual: 'type' })))
})
const GATE_SIGNALS = v.object({ signals: v.optional(objectArg()) })
const ABOUT_PRESENT = v.looseObject({
    aboutPresent: v.optional(v.boolean(says({ expected: 'boolean', actual: 'type' })))
})

/**
 * Decides for each area whether its dependency (area dependency graph) holds. `about-namespace`
 * needs both the About resource and the namespace level of the graph (02 ⚠ B8), not the resource alone.
 */
export function evaluateGates(areas: unknown, signals: unknown): GateResult {
    const errors: Issue[] = []
    const list: unknown[] = areas === undefined ? [...AREAS] : Array.isArray(areas) ? areas : []
    errors.push(...parseArgs(GATE_AREAS, { areas }, ARGS, KEY_STYLE).errors)
    list.forEach((a, i) => {
        if (!isArea(a)) errors.push(createIssue('ARE-001', `/areas/${i}`, { value: describeValue(a) }))
    })
    const s = (signals ?? {}) as Record<string, unknown>
    errors.push(...parseArgs(GATE_SIGNALS, { signals }, ARGS, KEY_STYLE).errors)
    for (const key of ['namespaceLevel', 'memberLevel'] as const) {
        if (s[key] !== undefined && !isLevel(s[key]))
            errors.push(
                createIssue('ARE-016', `/signals/${key}`, {
                    value: describeValue(s[key]),
                    expected: LEVEL_LADDER.join(', ')
                })
            )
    }
    // After the levels, as the signals' own rules come first; only an object's field (a non-object is reported above).
    if (isObject(signals))
        errors.push(...parseArgs(ABOUT_PRESENT, signals, ARGS, { ...KEY_STYLE, at: ['signals'] }).errors)
    if (errors.length > 0) return { ready: [], gated: [], errors }

    const ready: Area[] = []
    const gated: Array<{ area: Area; reason: string }> = []
    const missing = (field: string, area: Area): void => {
        errors.push(createIssue('ARE-017', `/signals/${field}`, { field, area }))
    }
    const levelCheck = (area: Area, signal: 'namespaceLevel' | 'memberLevel'): boolean | null => {
        const have = s[signal] as Level | undefined
        if (have === undefined) {
            missing(signal, area)
            return null
        }
        const d = AREA_CATALOGUE[area]
        if (rank(have) >= rank(d.requiredLevel)) return true
        gated.push({ area, reason: `dependency ${d.dependsOn} below requiredLevel ${d.requiredLevel} (have ${have})` })
        return false
    }
    for (const area of [...new Set(list as Area[])]) {
        const d = AREA_CATALOGUE[area]
        if (d.dependsOn === 'none') {
            ready.push(area)
        } else if (d.dependsOn === 'about-resource-present') {
            if (s.aboutPresent === undefined) {
                missing('aboutPresent', area)
                continue
            }
            if (s.aboutPresent !== true) {
                gated.push({ area, reason: 'dependency about-resource-present not satisfied (About resource absent)' })
                continue
            }
            if (levelCheck(area, 'namespaceLevel') === true) ready.push(area)
        } else if (
            levelCheck(area, d.dependsOn === 'all-namespace-schemas' ? 'namespaceLevel' : 'memberLevel') === true
        ) {
            ready.push(area)
        }
    }
    return errors.length > 0 ? { ready: [], gated: [], errors } : { ready, gated, errors }
}
