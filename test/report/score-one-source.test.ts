import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { nodeFs } from '../../src/cli/node.js'
import { checkSummaryMarkdown, createMemoryFs, renderIslandReport } from '../../src/index.js'
import { CAP_NOTE, gradeScoreText } from '../../src/report/score.js'
import { basisOfSchemaNode, standingOfSchemaNode } from '../../src/rollup/standing.js'
import { exampleGradeArgs, memoryIo } from '../cli/helpers.js'

const _examples = fileURLToPath(new URL('../../examples/', import.meta.url))
const now = '2026-11-22T18:00:00Z'
const dir = await mkdtemp(join(tmpdir(), 'flowmcp-score-'))
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const escapeHtml = (text: string): string =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The grade cell of a schema's row in the report's schemas table. */
function reportCell(html: string, namespace: string, schema: string): string | null {
    const table = html.slice(html.indexOf('id="t-schemas"'), html.indexOf('</table>', html.indexOf('id="t-schemas"')))
    for (const row of table.matchAll(/<tr>(.*?)<\/tr>/g)) {
        const cells = [...(row[1] as string).matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) =>
            (c[1] as string).replace(/<[^>]*>/g, '')
        )
        if (cells[0] === escapeHtml(namespace) && cells[1] === escapeHtml(schema)) return cells[3] ?? null
    }
    return null
}

describe('one score, every surface: the CLI table, --json, the check summary and the HTML report', () => {
    it('shows the same grade, score and raw grade for every schema of a graded island', async () => {
        const island = join(dir, 'island')
        const args = exampleGradeArgs('providers', island, now)
        const env = { ETHERSCAN_API_KEY: 'example-key-not-real' }
        const json = memoryIo({}, { env })
        await run(['grade', ...args, '--json'], json)
        // The same island again: every unit kept, the table read from what the island now holds.
        const text = memoryIo({}, { env })
        await run(['grade', ...args], text)
        const summary = join(dir, 'summary.md')
        await run(['check', '--island', island, '--summary', summary], memoryIo({}, { env }))
        const markdown = await readFile(summary, 'utf8')
        const { html } = await renderIslandReport({ fs: nodeFs(), root: island })
        const schemas = (
            JSON.parse(json.out()) as {
                schemas: Array<{
                    grading: { schemaId: string; namespace: string; schema: string } & Record<string, any>
                }>
            }
        ).schemas
        let scored = 0
        for (const { grading } of schemas) {
            const index = JSON.parse(
                await readFile(join(island, 'providers', grading.namespace, 'index.json'), 'utf8')
            ) as { schemas: Record<string, unknown> }
            const node = index.schemas[grading.schema]
            // --json: the basis is the index node's, through the one function.
            expect(grading.basis).toEqual(standingOfSchemaNode(node).basis)
            expect(grading.standing.basis).toEqual(grading.basis)
            const shown = gradeScoreText({ grade: grading.grade, basis: grading.basis })
            if (grading.basis !== null) {
                scored++
                expect(grading.basis).toEqual(basisOfSchemaNode(node))
                expect(shown).toMatch(/^[A-F] \d\.\d\d( \(raw [A-F]\))?$/)
            }
            // The CLI table, the check summary's table and the report's schemas table.
            expect(text.out()).toMatch(new RegExp(`\\n${escapeRe(grading.schemaId)}\\s+\\S+\\s+${escapeRe(shown)}\\s`))
            const md = grading.grade === null ? '—' : shown
            expect(markdown).toContain(`| ${grading.schemaId} | ${md} |`)
            expect(reportCell(html, grading.namespace, grading.schema)).toBe(grading.grade === null ? '—' : shown)
        }
        expect(scored).toBeGreaterThan(0)
        // The cap is said on every surface that shows a graded schema.
        expect(text.out()).toContain(CAP_NOTE)
        expect(markdown).toContain(CAP_NOTE)
        expect(html).toContain(escapeHtml(CAP_NOTE))
    }, 180_000)

    const leaf = fc.record({
        status: fc.constantFrom('stable', 'graded', 'blocked', 'pending'),
        grade: fc.constantFrom('A', 'B', 'C', 'D', 'F'),
        rawGrade: fc.constantFrom('A', 'B', 'C', 'D', 'F'),
        normalizedScore: fc.option(
            fc.double({ min: 1, max: 5, noNaN: true }).map((n) => Math.round(n * 100) / 100),
            {
                nil: undefined
            }
        )
    })
    const schemaNode = fc.record({
        status: fc.constantFrom('stable', 'graded', 'blocked', 'pending', 'rejected'),
        grade: fc.constantFrom('A', 'B', 'C', 'D', 'F'),
        toolsAggregate: leaf,
        tools: fc.dictionary(fc.constantFrom('getA', 'getB', 'getC'), leaf)
    })

    it('property: for any index node, the report and the summary print what the one function reads from it', async () => {
        await fc.assert(
            fc.asyncProperty(schemaNode, async (node) => {
                const standing = standingOfSchemaNode(node)
                const expected = gradeScoreText(standing)
                const fs = createMemoryFs({
                    '/island/providers/ns/index.json': JSON.stringify({
                        status: 'partial',
                        updatedAt: now,
                        schemas: { s: node }
                    })
                })
                const { html } = await renderIslandReport({ fs, root: '/island' })
                expect(reportCell(html, 'ns', 's')).toBe(standing.grade === null ? '—' : expected)
                const { markdown } = checkSummaryMarkdown({
                    rows: [
                        {
                            schema: 'ns.s',
                            grade: standing.grade,
                            basis: standing.basis,
                            baseline: '—',
                            status: standing.status,
                            failures: [],
                            fixes: []
                        }
                    ]
                })
                expect(markdown).toContain(`| ns.s | ${standing.grade === null ? '—' : expected} |`)
                // Metamorphic: a leaf that is not graded never changes the score, whatever it holds.
                const withBlocked = {
                    ...node,
                    tools: { ...node.tools, zzBlocked: { status: 'blocked', normalizedScore: 1, rawGrade: 'F' } }
                }
                expect(standingOfSchemaNode(withBlocked).basis).toEqual(standing.basis)
            }),
            { numRuns: 60 }
        )
    }, 120_000)

    it('shows the bare grade, never a made-up score, where the basis is missing or malformed (failing cases)', () => {
        expect(gradeScoreText({ grade: null, basis: { unit: 'x', score: 4, rawGrade: 'A' } })).toBe('-')
        expect(gradeScoreText({ grade: 'B', basis: null })).toBe('B')
        expect(gradeScoreText({ grade: 'B', basis: { unit: 'x', score: Number.NaN, rawGrade: 'A' } })).toBe('B')
        expect(gradeScoreText({ grade: 'B', basis: 7 as never })).toBe('B')
        expect(gradeScoreText({ grade: 'B', basis: { unit: 'x', score: 4.6, rawGrade: '<b>' as never } })).toBe(
            'B 4.60'
        )
        const { markdown, errors } = checkSummaryMarkdown({
            rows: [
                {
                    schema: 'ns.s',
                    grade: 'B',
                    basis: 'no' as never,
                    baseline: '—',
                    status: 'x',
                    failures: [],
                    fixes: []
                }
            ]
        })
        expect(errors).toEqual([])
        expect(markdown).toContain('| ns.s | B |')
    })
})
