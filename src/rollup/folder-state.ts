import type { Issue } from '../errors/types.js'
import { SEVERITY, AREAS, GRADING_MODES, type Area } from '../model/constants.js'
import { mayDecide, verifyGradingFacts } from './digest.js'
import { byTimeThenName } from './nodes.js'
import type { GradingFacts, GradingFileInput } from './types.js'
import { isObject } from '../model/object.js'

/**
 * One screened file the folder keeps: its screened facts, the verified ones once known, and the entry until verified.
 */
interface Held {
    readonly screened: GradingFacts
    verified: GradingFacts | null
    entry: unknown
}

/**
 * The facts of one `_gradings/` folder as the rebuild record keeps them: its listing, and the few facts a status may
 * rest on.
 */
export interface FolderRecord {
    /**
     * The folder's file names in listing order joined by `/` (which no file name contains), less
     * files whose read failed: equal to the current listing ⇒ nothing to read in this folder.
     */
    readonly listing: string
    /** Names in `listing` that are not grading file names. */
    readonly strays: readonly string[]
    /** The record line this came from, reused as is when the folder did not change. */
    readonly line?: string
    /** Per kept file: its screened facts and, when it was verified, the verified ones. */
    readonly kept: ReadonlyArray<{ readonly screened: GradingFacts; readonly verified: GradingFacts | null }>
}

const newer = (a: GradingFacts, b: GradingFacts | undefined): boolean => b === undefined || byTimeThenName(a, b) > 0

/**
 * The reduced state of one `_gradings/` folder: instead of every parsed entry it holds only the
 * files a node status can rest on (03 §6.1) — per area the newest file, the newest full entry and
 * the newest entry that may decide; every file with a problem or a veto; every usable full entry
 * naming a previous grading (it may lift a veto, 01-model ⚠ A11); in a skill folder every entry
 * naming another skill. All other files are audit trail: {@link deriveLeaf} gives the same node
 * for the kept subset as for the whole folder, so they are reduced to their names.
 *
 * Files arrive in any order (streaming, or from an earlier record plus the new files); the result
 * depends only on the set of files. Pure.
 */
export class FolderState {
    private readonly held = new Map<string, Held>()
    private readonly newestAny = new Map<Area, GradingFacts>()
    private readonly newestFull = new Map<Area, GradingFacts>()
    private readonly decider = new Map<Area, GradingFacts>()
    /** Files whose read failed for a reason that may pass (IDX-020): never recorded, so they are read again. */
    private readonly transient = new Set<string>()
    /** Every grading file of the folder, read or known from a record (all parse under the grammar). */
    readonly names = new Set<string>()

    /**
     * @param rel - the folder relative to the index folder (how messages name its files)
     * @param expectSkill - in a skill folder the skill name (entries naming another skill block the node); else `null`
     */
    constructor(
        readonly rel: string,
        readonly expectSkill: string | null
    ) {}

    private sticky(f: GradingFacts): boolean {
        return (
            f.problem !== null ||
            f.veto !== null ||
            (mayDecide(f) && f.previousGradingId !== null) ||
            (this.expectSkill !== null && f.skillId !== this.expectSkill)
        )
    }

    private stillNeeded(f: GradingFacts): boolean {
        const a = f.area
        return (
            this.sticky(f) ||
            this.newestAny.get(a)?.file === f.file ||
            this.newestFull.get(a)?.file === f.file ||
            this.decider.get(a)?.file === f.file
        )
    }

    /** Drops a file that decides nothing any more, and any entry that will not be verified. */
    private settle(f: GradingFacts | undefined): void {
        if (f === undefined) return
        const h = this.held.get(f.file)
        if (h === undefined) return
        if (!this.stillNeeded(h.screened)) this.held.delete(f.file)
        else if (h.verified !== null || this.decider.get(f.area)?.file !== f.file) h.entry = undefined
    }

    /**
     * Adds one screened file. `entry` is the parsed entry when it was just read (needed to verify
     * it later); `verified` the verified facts an earlier record holds.
     */
    offer(screened: GradingFacts, entry: unknown, verified: GradingFacts | null = null): void {
        const file = screened.file
        this.names.add(file)
        if (screened.problem !== null && screened.problem.code === 'IDX-020') this.transient.add(file)
        const h: Held = { screened, verified, entry }
        this.held.set(file, h)
        const a = screened.area
        const decides = mayDecide(screened)
        if (decides && screened.previousGradingId !== null && verified === null && entry !== undefined) {
            // Always verified (it may lift a veto): verify now and let the entry go.
            h.verified = verifyGradingFacts(screened, entry, `${this.rel}/${file}`)
        }
        // Runs for every file read: no arrays, the files it displaces are settled after it.
        const oldAny = this.newestAny.get(a)
        const anyNewer = newer(screened, oldAny)
        if (anyNewer) this.newestAny.set(a, screened)
        const oldFull = this.newestFull.get(a)
        const fullNewer = screened.gradingMode === 'full' && newer(screened, oldFull)
        if (fullNewer) this.newestFull.set(a, screened)
        const oldDecider = this.decider.get(a)
        const deciderNewer = decides && newer(screened, oldDecider)
        if (deciderNewer) this.decider.set(a, screened)
        this.settle(screened)
        if (anyNewer) this.settle(oldAny)
        if (fullNewer) this.settle(oldFull)
        if (deciderNewer) this.settle(oldDecider)
    }

    /** Adds a file known only by name (listed, not read): it is audit trail unless an earlier record kept it. */
    known(name: string): void {
        this.names.add(name)
    }

    /**
     * Verifies what must be verified (per area the deciding entry, and every lineage entry) and
     * returns the final facts by file name; `null` when a fact that needs verification has neither
     * verified facts nor its entry (an inconsistent record: read the folder again).
     */
    finish(): Map<string, GradingFacts> | null {
        const out = new Map<string, GradingFacts>()
        const must = new Set<string>([...this.decider.values()].map((f) => f.file))
        for (const [file, h] of this.held)
            if (mayDecide(h.screened) && h.screened.previousGradingId !== null) must.add(file)
        for (const [file, h] of this.held) {
            if (!must.has(file)) {
                out.set(file, h.screened)
                continue
            }
            if (h.verified === null) {
                if (h.entry === undefined) return null
                h.verified = verifyGradingFacts(h.screened, h.entry, `${this.rel}/${file}`)
            }
            h.entry = undefined
            out.set(file, h.verified)
        }
        return out
    }

    /** What the rebuild record keeps of this folder (call after {@link finish}); `listed` is the folder's listing. */
    record(listed: readonly string[]): FolderRecord {
        const names = listed.filter((n) => !this.transient.has(n))
        const strays = names.filter((n) => !this.names.has(n))
        const kept = [...this.held.values()]
            .filter((h) => !this.transient.has(h.screened.file))
            .sort((x, y) => (x.screened.file < y.screened.file ? -1 : 1))
            .map((h) => ({
                screened: h.screened,
                verified: h.verified !== null && this.needsVerified(h.screened) ? h.verified : null
            }))
        return { listing: names.join('/'), strays, kept }
    }

    private needsVerified(f: GradingFacts): boolean {
        return this.decider.get(f.area)?.file === f.file || (mayDecide(f) && f.previousGradingId !== null)
    }
}

/**
 * The GradingFileInputs of a folder listing: kept files with their final facts, other grading
 * files as audit names with their area, anything else by name only (the builder reports it).
 * `isGrading` tells the names known to parse under the grammar, so no name is parsed again here.
 */
export function folderInputs(
    listed: readonly string[],
    finals: ReadonlyMap<string, GradingFacts>,
    isGrading: (name: string) => boolean
): GradingFileInput[] {
    return listed.map((name) => {
        const f = finals.get(name)
        if (f !== undefined) return { name, facts: f }
        // The area is the name's first field: areas never contain the separator.
        return isGrading(name) ? { name, audit: name.slice(0, name.indexOf('--')) as Area } : { name }
    })
}

// ---- compact encoding of facts in the record ------------------------------------------------

const STRING_FIELDS = [
    'gradingId',
    'aggregateGrade',
    'rawGrade',
    'schemaHash',
    'aboutHash',
    'skillId',
    'selectionId',
    'veto',
    'previousGradingId',
    'scoringSystem',
    'gradingSystem'
] as const

const FACT_FIELDS: ReadonlySet<string> = new Set([
    'verified',
    'problem',
    'gradingMode',
    'normalizedScore',
    ...STRING_FIELDS
])

/** Facts without what the file name already says and without nulls. */
export function encodeFacts(f: GradingFacts): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    if (f.verified) out.verified = true
    if (f.problem !== null)
        out.problem = {
            code: f.problem.code,
            severity: f.problem.severity,
            message: f.problem.message,
            path: f.problem.path
        }
    if (f.gradingMode !== null) out.gradingMode = f.gradingMode
    if (f.normalizedScore !== null) out.normalizedScore = f.normalizedScore
    for (const k of STRING_FIELDS) if (f[k] !== null) out[k] = f[k]
    return out
}

function isIssue(v: unknown): v is Issue {
    if (!isObject(v)) return false
    const i = v as Record<string, unknown>
    return (
        typeof i.code === 'string' &&
        (i.severity === SEVERITY.error || i.severity === SEVERITY.warning || i.severity === SEVERITY.info) &&
        typeof i.message === 'string' &&
        typeof i.path === 'string' &&
        Object.keys(i).length === 4
    )
}

/**
 * The fields of a grading file name the record already checked when the file was read (its line
 * checksum vouches for it since), split without validating the timestamp again.
 */
function splitGradingName(
    file: string
): { area: Area; basePersona: string | null; lens: string | null; timestamp: string } | null {
    if (!file.endsWith('.json')) return null
    const p = file.slice(0, -5).split('--')
    const area = p[0] as Area
    if (!(AREAS as readonly string[]).includes(area)) return null
    if (p.length === 2) return { area, basePersona: null, lens: null, timestamp: p[1] as string }
    if (p.length === 4) return { area, basePersona: p[1] as string, lens: p[2] as string, timestamp: p[3] as string }
    return null
}

/** Decodes {@link encodeFacts} for `file`; `null` when anything is off (the record is then not used for the folder). */
export function decodeFacts(file: string, value: unknown): GradingFacts | null {
    const parts = splitGradingName(file)
    if (parts === null || !isObject(value)) return null
    const v = value as Record<string, unknown>
    for (const k in v) if (!FACT_FIELDS.has(k)) return null
    if (v.verified !== undefined && v.verified !== true) return null
    if (v.problem !== undefined && !isIssue(v.problem)) return null
    if (v.gradingMode !== undefined && !(GRADING_MODES as readonly unknown[]).includes(v.gradingMode)) return null
    if (
        v.normalizedScore !== undefined &&
        (typeof v.normalizedScore !== 'number' || !Number.isFinite(v.normalizedScore))
    )
        return null
    if (!(AREAS as readonly string[]).includes(parts.area)) return null
    const strings: Record<string, string | null> = {}
    for (const k of STRING_FIELDS) {
        const s = v[k]
        if (s !== undefined && typeof s !== 'string') return null
        strings[k] = s ?? null
    }
    return {
        file,
        timestamp: parts.timestamp,
        area: parts.area,
        basePersona: parts.basePersona,
        lens: parts.lens,
        problem: (v.problem as Issue | undefined) ?? null,
        verified: v.verified === true,
        ...(strings as Pick<GradingFacts, (typeof STRING_FIELDS)[number]>),
        gradingMode: (v.gradingMode as GradingFacts['gradingMode'] | undefined) ?? null,
        normalizedScore: (v.normalizedScore as number | undefined) ?? null
    } as GradingFacts
}

/**
 * What verification added to screened facts (its problem, or rawGrade and normalizedScore): the rest is the screened
 * facts.
 */
export function encodeVerified(v: GradingFacts): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    if (v.problem !== null)
        out.problem = {
            code: v.problem.code,
            severity: v.problem.severity,
            message: v.problem.message,
            path: v.problem.path
        }
    if (v.rawGrade !== null) out.rawGrade = v.rawGrade
    if (v.normalizedScore !== null) out.normalizedScore = v.normalizedScore
    return out
}

/** Decodes {@link encodeVerified} over the screened facts; `null` when anything is off. */
export function decodeVerified(screened: GradingFacts, value: unknown): GradingFacts | null {
    if (!isObject(value)) return null
    const v = value as Record<string, unknown>
    if (Object.keys(v).some((k) => k !== 'problem' && k !== 'rawGrade' && k !== 'normalizedScore')) return null
    if (v.problem !== undefined && !isIssue(v.problem)) return null
    if (v.rawGrade !== undefined && typeof v.rawGrade !== 'string') return null
    if (
        v.normalizedScore !== undefined &&
        (typeof v.normalizedScore !== 'number' || !Number.isFinite(v.normalizedScore))
    )
        return null
    return {
        ...screened,
        verified: true,
        problem: (v.problem as Issue | undefined) ?? screened.problem,
        rawGrade: (v.rawGrade as GradingFacts['rawGrade'] | undefined) ?? screened.rawGrade,
        normalizedScore: (v.normalizedScore as number | undefined) ?? screened.normalizedScore
    }
}
