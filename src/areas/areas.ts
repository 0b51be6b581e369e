import graphData from './data/area-dependency-graph.json' with { type: 'json' }
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { resolveLimits, type JsonLimits } from '../json/guard.js'
import { AREAS, type Area } from '../model/constants.js'
import {
    AREA_CATALOGUE,
    isArea,
    LEVEL_LADDER,
    QUESTION_CATALOGUE_VERSION,
    questionsOf,
    type AreaDescriptor,
    type AreaQuestion,
    type Level
} from './catalogue.js'
import { evaluateGates, type GateResult, type GateSignals } from './gates.js'
import {
    AREA_OUTPUT_MASTER_SCHEMA,
    AREA_OUTPUT_SCHEMAS,
    selfContainedOutputSchema,
    validateAreaOutput,
    type AreaOutputValidation
} from './output.js'
import { toGradingEntry, type DeterministicAnswer, type GradingContext, type ToGradingEntryResult } from './to-entry.js'
import { isObject } from '../model/object.js'
import { guardStatics } from '../errors/guard.js'

function lookup(area: unknown): { area: Area | null; errors: Issue[] } {
    if (area === undefined) return { area: null, errors: [createIssue('ARE-011', '/area', { field: 'area' })] }
    if (!isArea(area)) return { area: null, errors: [createIssue('ARE-001', '/area', { value: describeValue(area) })] }
    return { area, errors: [] }
}

/** An entry of the area dependency graph, as shipped. */
export interface DependencyGraphEntry {
    readonly area: Area
    readonly group: string
    readonly dependsOn: { readonly kind: string }
    readonly requiredLevel: string
    readonly classification: string
    readonly deferred: boolean
}

/**
 * The eleven grading areas as data: side, tier, persona and skill obligations, question sets,
 * `_gradings/` locations, dependencies and blocking conditions (02-areas §1, 06 §18), plus the
 * validation of harness answers and their conversion into grading entries (04 §2).
 */
class AreasUnguarded {
    private constructor() {}

    /**
     * All eleven areas in spec order.
     * @returns `{ areas }` — frozen descriptors.
     * @example Areas.list().areas.map((a) => a.id)[10] // 'selection-aggregate'
     */
    static list(): { areas: AreaDescriptor[] } {
        return { areas: AREAS.map((a) => AREA_CATALOGUE[a]) }
    }

    /**
     * One area's descriptor.
     * @param input - `{ area }`
     * @returns `{ area, errors }`; ARE-011 when `area` is missing, ARE-001 when it is unknown.
     * @example Areas.get({ area: 'single-test' }).area?.questionCount // 10
     */
    static get(input: { area?: unknown }): { area: AreaDescriptor | null; errors: Issue[] } {
        const { area, errors } = lookup(input?.area)
        return { area: area === null ? null : AREA_CATALOGUE[area], errors }
    }

    /**
     * The question set of one area (catalogue version {@link QUESTION_CATALOGUE_VERSION}).
     * @param input - `{ area }`
     * @returns `{ questions, version, errors }`; ARE-011/ARE-001 for a missing or unknown area.
     * @example Areas.questions({ area: 'selection-aggregate' }).questions.length // 6
     */
    static questions(input: { area?: unknown }): { questions: AreaQuestion[]; version: string; errors: Issue[] } {
        const { area, errors } = lookup(input?.area)
        return { questions: area === null ? [] : [...questionsOf(area)], version: QUESTION_CATALOGUE_VERSION, errors }
    }

    /**
     * The JSON Schema (draft 2020-12) a harness answer for the area must match, and the shared master.
     * With `selfContained: true`, a copy with every reference resolved inline, for showing in a prompt.
     * @param input - `{ area, selfContained? }`
     * @returns `{ schema, master, errors }`; ARE-011/ARE-001 for a missing or unknown area.
     * @example Areas.outputSchema({ area: 'single-test' }).schema
     */
    static outputSchema(input: { area?: unknown; selfContained?: boolean }): {
        schema: object | null
        master: object
        errors: Issue[]
    } {
        const { area, errors } = lookup(input?.area)
        if (area === null) return { schema: null, master: AREA_OUTPUT_MASTER_SCHEMA, errors }
        return {
            schema: input.selfContained === true ? selfContainedOutputSchema(area) : AREA_OUTPUT_SCHEMAS[area],
            master: AREA_OUTPUT_MASTER_SCHEMA,
            errors
        }
    }

    /**
     * The level ladder dependencies are measured on, lowest first.
     * @returns `{ levels }`
     * @example Areas.levels().levels // ['imported', 'structural-valid', 'deterministic-green', 'stable']
     */
    static levels(): { levels: Level[] } {
        return { levels: [...LEVEL_LADDER] }
    }

    /**
     * The area dependency graph as shipped (v1.2.0 of the reference data).
     * @returns `{ version, entries }`
     * @example Areas.dependencyGraph().entries.find((e) => e.area === 'about-namespace')?.requiredLevel // 'stable'
     */
    static dependencyGraph(): { version: string; entries: DependencyGraphEntry[] } {
        return {
            version: graphData.version,
            entries: (graphData.entries as DependencyGraphEntry[]).map((e) => ({ ...e, dependsOn: { ...e.dependsOn } }))
        }
    }

    /**
     * Decides which areas may run from the derived levels (area dependency graph).
     * @param input - `{ areas?, signals: { namespaceLevel?, aboutPresent?, memberLevel? } }`; all areas when `areas` is
     *   omitted.
     * @returns `{ ready, gated: [{ area, reason }], errors }`; ARE-001 unknown area, ARE-016 unknown level,
     *   ARE-017 a signal the graph needs is missing (then nothing is decided).
     * @example
     * Areas.evaluateGates({
     *     areas: ['single-test', 'tools-aggregate-namespace'],
     *     signals: { namespaceLevel: 'structural-valid' }
     * }).gated
     */
    static evaluateGates(input: { areas?: unknown; signals?: GateSignals | unknown }): GateResult {
        return evaluateGates(input?.areas, input?.signals)
    }

    /**
     * Validates a harness answer for one area: the envelope of the area's output schema, or the
     * `{ blocker, reason }` shortcut (recognised as a blocker, not as an error). Paths point into `/output`.
     * @param input - `{ area, output, limits? }`
     * @returns `{ valid, kind, output, blocker, errors }`. Codes: ARE-001..010, ARE-018, GRD-030 (iteration),
     *   GRD-031 (improvementHints), GRD-032 (persona), GRD-034 (harness), GRD-017, NA-001, SCO-001/003/005, INP-*.
     * @example Areas.validateOutput({ area: 'single-test', output: JSON.parse(text) }).valid
     */
    static validateOutput(input: {
        area?: unknown
        output?: unknown
        limits?: Partial<JsonLimits>
    }): AreaOutputValidation {
        return validateAreaOutput(input?.area, input?.output, resolveLimits(input?.limits))
    }

    /**
     * Turns one harness area output plus the deterministic answers computed by code into one
     * chapter 08 grading entry that passes `validateGradingEntry`. A blocker reply gives
     * `blocker` and no entry. `iteration` and `improvementHints` come back as `sidecar` (they are
     * not entry fields). The area is taken from `output.area` when `area` is omitted. The output
     * may leave out the deterministic questions `deterministic` answers: the two sets together answer
     * every question of the area, and a harness answer to a question code answered is replaced.
     * @param input - `{ output, context, deterministic?, area?, limits? }` — see {@link GradingContext}
     * @returns `{ entry, blocker, sidecar, aggregate, errors }`. Codes: every code of
     *   {@link Areas.validateOutput}, ARE-020 (a question neither the output nor code answers),
     *   ARE-011/012 (context), ARE-013 (context contradicts the output),
     *   ARE-014/015 (deterministic answers), ARE-019 (no grade), ARE-WARN-001, ARE-INFO-001, and the
     *   GRD-/SCO-/VET- codes of the entry validation.
     * @example
     * Areas.toGradingEntry({
     *     output,
     *     context: {
     *         schemaId: 'demo.prices',
     *         version: 'flowmcp/4.2.0',
     *         schemaHash: 'a1b2c3d4',
     *         gradingMode: 'full',
     *         now,
     *         grader,
     *         llmModel,
     *         selectionContext
     *     }
     * }).entry
     */
    static toGradingEntry(input: {
        output?: unknown
        context?: GradingContext | unknown
        deterministic?: readonly DeterministicAnswer[] | unknown
        area?: unknown
        limits?: Partial<JsonLimits>
    }): ToGradingEntryResult {
        const output = input?.output
        const fromOutput = isObject(output) ? output.area : undefined
        return toGradingEntry(
            input?.area ?? fromOutput,
            output,
            input?.deterministic,
            input?.context,
            resolveLimits(input?.limits)
        )
    }
}

/**
 * The public Areas: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const Areas = /* @__PURE__ */ guardStatics(AreasUnguarded, 'Areas')
