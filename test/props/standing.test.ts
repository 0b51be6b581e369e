import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    gradeNamespace,
    httpPortFromRecordings,
    RebuildIndex,
    type FsPort,
    type GradeNamespaceResult,
    type JudgeRequest
} from '../../src/index.js'
import {
    compareStandings,
    standingOfSchemaNode,
    standingRank,
    standingsOfIndex,
    type SchemaStanding
} from '../../src/rollup/standing.js'
import { grader, replyFor } from '../grade/helpers.js'
import { syntheticRecordings } from '../support/synthetic-recordings.js'
import { shared } from '../support/shared.js'

// One grade, one truth: invariants checked on copies of real sample schemas (skipped without ../shared).
const { path: SAMPLE, present } = shared('corpus-sample/schemas/')
const now = '2026-11-25T10:00:00Z'
/** Keyless and key-gated schemas, with and without many tools. */
const FILES = [
    'frankfurter/frankfurter.mjs',
    'coincap/exchanges.mjs',
    'rickandmorty/rickandmorty.mjs',
    'nobelprize/nobelprize.mjs',
    'metmuseum/metmuseum.mjs'
].filter((f) => present && existsSync(SAMPLE + f))
const KEYS: Record<string, string> = {
    ETHERSCAN_API_KEY: 'stand-in-etherscan-value',
    COINCAP_API_KEY: 'stand-in-coincap-value'
}

/** A judge that answers 4, and 2 wherever a tool of the schema has a blank description: less text never scores more. */
async function judge(request: JudgeRequest): Promise<string> {
    const text = request.attachments.map((a) => a.content).join('\n')
    const blank = /description:\s*(''|"")/.test(text)
    return JSON.stringify(replyFor(request.area, blank ? 2 : 4))
}

interface Graded {
    readonly fs: FsPort
    readonly result: GradeNamespaceResult
    readonly index: unknown
}

/** Grades one schema source as its namespace, tested from synthetic recordings (every test answered with data) unless `offline`. */
async function gradeSource(
    file: string,
    source: string,
    options: { offline?: boolean; keys?: boolean; recordingsOf?: string } = {}
): Promise<Graded> {
    const ns = file.split('/')[0] as string
    const fs = createMemoryFs({ [`/src/${ns}/${file.split('/')[1]}`]: source })
    const http =
        options.offline === true
            ? undefined
            : httpPortFromRecordings({ recordings: syntheticRecordings([options.recordingsOf ?? source]) as never })
    // The sample's tools carry one or two tests; a bar of 1 lets their tested tools be graded, so the invariants bite.
    const result = await gradeNamespace({
        dir: `/src/${ns}`,
        grader,
        options: {
            sourceFs: fs,
            fs,
            root: '/island',
            now,
            judge,
            minWorkingTests: 1,
            ...(http !== undefined ? { http } : {}),
            ...(options.keys === false ? {} : { serverParams: KEYS })
        }
    })
    const index: unknown = JSON.parse(
        ((await fs.readFile(`/island/providers/${ns}/index.json`)) as string | null) ?? 'null'
    )
    return { fs, result, index }
}

const original = (file: string): string => readFileSync(SAMPLE + file, 'utf8')
const schemaNode = (index: unknown, schema: string): unknown =>
    (index as { schemas?: Record<string, unknown> } | null)?.schemas?.[schema]

describe.skipIf(FILES.length === 0)('one grade, one truth (copies of real sample schemas)', () => {
    it.each(FILES)(
        'every surface agrees on the standing of %s: the result, its index node, the namespace grade',
        async (file) => {
            const { result, index } = await gradeSource(file, original(file))
            for (const row of result.schemas) {
                const g = row.result.grading
                expect(g).not.toBeNull()
                if (g === null) continue
                const node = standingOfSchemaNode(schemaNode(index, g.schema))
                expect({ status: g.status, grade: g.grade, schemaGrade: g.schemaGrade }).toEqual({
                    status: node.status,
                    grade: node.grade,
                    schemaGrade: node.schemaGrade
                })
                // No letter without a graded status, on any field that is not explicitly deterministic-only.
                if (g.status !== 'graded' && g.status !== 'stable' && g.status !== 'rejected')
                    expect([g.grade, g.schemaGrade, g.rawGrade]).toEqual([null, null, null])
            }
            expect(result.grade).toBe((index as { grade?: string }).grade ?? null)
            // Tested from recordings and judged, with its keys given: the schema is graded, so the other invariants bite.
            expect(result.schemas.map((r) => r.result.grading?.grade)).toEqual(
                result.schemas.map(() => expect.stringMatching(/^[A-F]$/))
            )
        }
    )

    it.each(FILES)('an unchanged island compared with itself does not get worse (%s)', async (file) => {
        const { index } = await gradeSource(file, original(file))
        const again = await gradeSource(file, original(file))
        const before = standingsOfIndex(index).schemas
        for (const [id, after] of standingsOfIndex(again.index).schemas)
            expect(compareStandings(before.get(id), after)).toEqual({ worse: false, messages: [] })
        for (const [id, s] of before) expect(compareStandings(s, s).worse, id).toBe(false)
    })

    it.each(FILES)('an offline judged run grades no tool of %s, and shows no letter', async (file) => {
        const { result, index } = await gradeSource(file, original(file), { offline: true })
        expect(result.entries.filter((e) => e.area === 'single-test' || e.area === 'tools-aggregate-schema')).toEqual(
            []
        )
        for (const row of result.schemas) {
            expect(row.result.grading?.status).toBe('blocked')
            expect(row.result.grading?.grade).toBeNull()
        }
        for (const node of Object.values(
            (index as { schemas: Record<string, { tools: Record<string, { status: string }> }> }).schemas
        )) {
            for (const tool of Object.values(node.tools)) expect(tool.status).toBe('blocked')
        }
    })

    const DAMAGE: Array<[string, (source: string) => string]> = [
        ['a broken method', (s) => s.replace(/method:\s*'GET'/, "method: 'FETCH'")],
        ['tests cut to one', (s) => s.replace(/tests:\s*\[\s*(\{[^\]]*?\})\s*,[^\]]*\]/g, 'tests: [ $1 ]')],
        ['descriptions blanked', (s) => s.replace(/(\n\s+description:\s*)(['"`])(?:(?!\2)[^\\]|\\.)*\2/g, "$1''")]
    ]

    it.each(FILES.flatMap((f) => DAMAGE.map(([name, edit]) => [f, name, edit] as const)))(
        'damage never raises a standing: %s with %s',
        async (file, _name, edit) => {
            const source = original(file)
            const damaged = edit(source)
            const before = await gradeSource(file, source)
            // The damaged schema replays the recordings the intact one would send: its requests may no longer match them.
            const after = await gradeSource(file, damaged, { recordingsOf: source })
            const rank = (g: Graded): number[] =>
                g.result.schemas.map((r) => standingRank(r.result.grading?.standing as SchemaStanding))
            rank(after).forEach((r, i) => expect(r).toBeLessThanOrEqual(rank(before)[i] as number))
        }
    )

    it.each(FILES.filter((f) => /coincap/.test(f)))(
        'damage never raises a standing: %s with its key taken away',
        async (file) => {
            const before = await gradeSource(file, original(file))
            const after = await gradeSource(file, original(file), { keys: false })
            const standing = after.result.schemas[0]?.result.grading
            expect(standing?.status).toBe('blocked')
            expect(standingRank(standing?.standing as SchemaStanding)).toBeLessThanOrEqual(
                standingRank(before.result.schemas[0]?.result.grading?.standing as SchemaStanding)
            )
            expect(standing?.standing.untestedHere).toBe(true)
        }
    )

    it.each(FILES)('a git round trip (files only, no empty folder) rebuilds the same index for %s', async (file) => {
        for (const offline of [false, true]) {
            const { fs, index } = await gradeSource(file, original(file), { offline })
            const ns = file.split('/')[0] as string
            // What git keeps: every file, no folder of its own.
            const files = await allFiles(fs, '/island')
            const clone = createMemoryFs(
                Object.fromEntries(
                    files.filter(([path]) => !path.endsWith('/index.json')).map(([path, text]) => [path, text])
                )
            )
            const rebuilt = await RebuildIndex.rebuildNamespaceIndex({
                fs: clone,
                namespaceDir: `/island/providers/${ns}`,
                now: '2026-11-26T10:00:00Z'
            })
            const strip = (value: unknown): unknown => ({ ...(value as Record<string, unknown>), updatedAt: undefined })
            expect(strip(rebuilt.index)).toEqual(strip(index))
        }
    })
})

/** Every file under `dir` with its text. */
async function allFiles(fs: FsPort, dir: string): Promise<Array<[string, string]>> {
    const out: Array<[string, string]> = []
    for (const entry of (await fs.readdir(dir)) ?? []) {
        const path = `${dir}/${entry.name}`
        if (entry.kind === 'directory') out.push(...(await allFiles(fs, path)))
        else out.push([path, ((await fs.readFile(path)) as string | null) ?? ''])
    }
    return out
}
