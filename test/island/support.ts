// Shared builders for the island, rollup and port tests: valid grading entries and small islands.
import { questionsOf } from '../../src/areas/catalogue.js'
import type { Area, FsPort } from '../../src/index.js'

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F'

const SCORE: Record<Grade, number> = { A: 5, B: 4, C: 3, D: 2, F: 1 }
const GROUP_BOUND = [
    'about-selection',
    'selection-skills-L1',
    'selection-skills-L2',
    'selection-skills-L3',
    'selection-aggregate'
]
const PERSONA = [
    'namespace-skills',
    'about-namespace',
    'about-selection',
    'selection-skills-L1',
    'selection-skills-L2',
    'selection-skills-L3',
    'selection-aggregate'
]
const SKILL = ['namespace-skills', 'selection-skills-L1', 'selection-skills-L2', 'selection-skills-L3']
const ABOUT = ['about-namespace', 'about-selection']

export interface EntryOptions {
    area: string
    schemaId?: string
    schemaHash?: string
    grade?: Grade
    mode?: 'full' | 'partial'
    veto?: boolean
    timestamp?: string
    skillId?: string
    selectionId?: string
    aboutHash?: string
    lens?: string
    previousGradingId?: string
    gradingSystem?: string
}

/** A valid grading entry for any area; answers are chosen so that the aggregate equals `grade`. */
export function makeEntry(o: EntryOptions): Record<string, unknown> {
    const groupBound = GROUP_BOUND.includes(o.area)
    const ts = o.timestamp ?? '2026-05-31T11:00:00Z'
    const schemaHash = o.schemaHash ?? '93baef35'
    const grade: Grade = o.grade ?? 'B'
    const answer = (questionId: string, score: number | string, weight = 1) => ({
        questionId,
        score,
        weight,
        determinism: 'non-deterministic',
        graderIdentity: { kind: 'human', name: 'reviewer', version: '1.0.0' },
        selectionContext: { groupId: 'crypto', personaIds: ['decision-maker'] },
        timestamp: ts
    })
    const vetoed = o.veto === true
    const entry: Record<string, unknown> = {
        gradingId: `${schemaHash}--${ts.replace(/:/g, '-')}`,
        schemaId: o.schemaId ?? 'defillama.prices',
        ...(groupBound ? { selectionId: o.selectionId ?? 'defi-core' } : {}),
        area: o.area,
        version: 'flowmcp/4.0.0',
        schemaHash,
        ...(ABOUT.includes(o.area)
            ? { aboutHash: o.aboutHash ?? 'abcdef01' }
            : o.aboutHash !== undefined
              ? { aboutHash: o.aboutHash }
              : {}),
        gradingMode: o.mode ?? 'full',
        gradingTier: groupBound ? 'group-bound' : 'autonomous',
        harness: 'claude-code',
        ...(PERSONA.includes(o.area)
            ? { persona: { basePersonaId: 'decision-maker', lensId: o.lens ?? 'crypto' } }
            : {}),
        ...(SKILL.includes(o.area) ? { skillId: o.skillId ?? 'summarizePrices' } : {}),
        scoringSystem: 'scoringSystem/1.0.0',
        gradingSystem: o.gradingSystem ?? 'gradingSystem/1.0.0',
        gradings: vetoed
            ? [answer('Q-security', 'fail')]
            : questionsOf(o.area as Area).map((q) => answer(q.id, SCORE[grade], q.weight)),
        categoricalVeto: vetoed
            ? {
                  triggeredBy: 'api-key-domain-mismatch',
                  graderIdentity: { kind: 'script', name: 'key-scanner', version: '1.0.0' },
                  evidence: 'requiredServerParams[0] = FACEBOOK_API_KEY',
                  timestamp: ts
              }
            : null,
        ...(o.previousGradingId !== undefined
            ? { regradingTrigger: { triggeredBy: 'scheduled', previousGradingId: o.previousGradingId, timestamp: ts } }
            : {}),
        aggregateGrade: vetoed ? 'REJECTED' : grade,
        maxAttainableGrade: groupBound ? 'A' : 'B'
    }
    return entry
}

/** Entry text as the island writes it. */
export function entryText(o: EntryOptions): string {
    return `${JSON.stringify(makeEntry(o), null, 4)}\n`
}

/** A FlowMCP v4 `main` export. */
export function makeMain(
    namespace: string,
    name: string,
    tools: string[],
    extra: Record<string, unknown> = {}
): Record<string, unknown> {
    return {
        namespace,
        name,
        description: `${name} endpoints of ${namespace}.`,
        version: '4.0.0',
        root: 'https://api.example.org',
        tools: Object.fromEntries(
            tools.map((t) => [
                t,
                {
                    method: 'GET',
                    path: `/${t}`,
                    description: `Returns ${t}.`,
                    parameters: [],
                    tests: [{ _description: 'basic' }]
                }
            ])
        ),
        ...extra
    }
}

/** The text of a schema module for `main` (never executed by the library). */
export function moduleText(main: Record<string, unknown>, handlers = ''): string {
    return `export const main = ${JSON.stringify(main, null, 4)}\n${handlers}`
}

/** Every file and directory under `root`, read through a port: a comparable picture of the island. */
export async function snapshotTree(
    fs: FsPort,
    root: string
): Promise<{ files: Record<string, string>; dirs: string[] }> {
    const files: Record<string, string> = {}
    const dirs: string[] = []
    const walk = async (dir: string): Promise<void> => {
        const entries = await fs.readdir(dir)
        if (entries === null) return
        for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : 1))) {
            const p = `${dir}/${e.name}`
            if (e.kind === 'directory') {
                dirs.push(p)
                await walk(p)
            } else files[p] = (await fs.readFile(p)) ?? ''
        }
    }
    await walk(root)
    return { files, dirs }
}

/** Wraps a port so that the k-th mutating call (writeFile, mkdir, rename, rm) rejects once. */
export function failingOn(fs: FsPort, k: number): { port: FsPort; calls: () => number } {
    let n = 0
    const trip = (): void => {
        n += 1
        if (n === k) throw Object.assign(new Error(`injected failure on mutating call ${k}`), { code: 'EIO' })
    }
    return {
        port: {
            readFile: (p) => fs.readFile(p),
            readdir: (p) => fs.readdir(p),
            stat: (p) => fs.stat(p),
            lstat: (p) => fs.lstat(p),
            writeFile: async (p, d, o) => {
                trip()
                return fs.writeFile(p, d, o)
            },
            link: async (a, b) => {
                trip()
                return fs.link(a, b)
            },
            mkdir: async (p) => {
                trip()
                return fs.mkdir(p)
            },
            rename: async (a, b) => {
                trip()
                return fs.rename(a, b)
            },
            rm: async (p) => {
                trip()
                return fs.rm(p)
            }
        },
        calls: () => n
    }
}
