// What `check` says of a schema not tested here (ENVIRONMENT_BLOCKED_REASONS): the tools, the note beside its
// status, and whether a new or changed one is unverified (nothing that could be checked before is lost).
import { isEnvironmentReason } from '../../model/environment.js'
import { NODE_STATUS, type BlockedReason } from '../../model/constants.js'
import type { SchemaStanding } from '../../rollup/standing.js'
import type { BaselineNode } from './check-baseline.js'

/** What `untestedChange` reads of a checked schema. */
interface Checked {
    readonly standing: SchemaStanding
    readonly hash: string | null
}

/** The tools a standing names as not tested here (`ENVIRONMENT_BLOCKED_REASONS`: a missing key, recording, …). */
export function untestedOf(standing: SchemaStanding): string[] {
    return standing.blockedTools.filter((t) => isEnvironmentReason(t.cause)).map((t) => t.tool)
}

/** The environment reasons a standing's blocked tools name, each once, sorted. */
export function environmentCausesOf(standing: SchemaStanding): string[] {
    const causes = standing.blockedTools.map((t) => t.cause).filter((c): c is BlockedReason => isEnvironmentReason(c))
    return [...new Set(causes)].sort()
}

/** A note for a schema that has no grade for a reason of the environment, not of the schema. */
export function noteOf(standing: SchemaStanding): string | null {
    if (standing.status === 'provisional') return 'provisional: deterministic answers only'
    if (!standing.untestedHere) return null
    const n = untestedOf(standing).length
    return `${n} tool${n === 1 ? '' : 's'} not tested here: ${environmentCausesOf(standing).join(', ')}`
}

/**
 * A new or changed schema blocked for a reason of the environment (`ENVIRONMENT_BLOCKED_REASONS`): this run could not
 * test what the pull request brings, so the gate cannot tell. Null when the baseline holds the same content, or was
 * blocked for every one of these reasons already (nothing that could be checked before is lost).
 */
export function untestedChange(
    s: Checked,
    before: BaselineNode | undefined,
    compared: { readonly baselineGiven: boolean; readonly everySchemaNew: boolean }
): string | null {
    const causes = environmentCausesOf(s.standing)
    if (s.standing.status !== NODE_STATUS.blocked || causes.length === 0) return null
    const isNew = before === undefined
    // Without a baseline (and not told every schema is new) there is nothing a schema could be new or changed against.
    if (isNew && !compared.baselineGiven && !compared.everySchemaNew) return null
    if (!isNew && s.hash !== null && before.hash === s.hash) return null
    const known = isNew || before.standing.status !== NODE_STATUS.blocked ? [] : environmentCausesOf(before.standing)
    const lost = causes.filter((c) => !known.includes(c))
    if (lost.length === 0) return null
    const tools = s.standing.blockedTools.filter((t) => t.cause !== null && lost.includes(t.cause)).map((t) => t.tool)
    const what = isNew ? 'new since the baseline' : 'changed since the baseline'
    return `${what} and not tested here (${lost.join(', ')}: ${tools.join(', ')})`
}
