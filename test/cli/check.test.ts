import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'
import { writeSyntheticRecordings } from '../support/synthetic-recordings.js'
import { shared } from '../support/shared.js'

// Copies of a real sample schema, made at test time (never kept in the project).
const { path: SAMPLE, present } = shared('corpus-sample/schemas/frankfurter/')
const now = '2026-11-25T10:00:00Z'
let dir = ''

/** A judge that answers 4, and 2 for every question of a tool whose description says TODO (a lowered description). */
const JUDGE = `import { readFileSync } from 'node:fs'
const request = JSON.parse(readFileSync(0, 'utf8'))
const tool = request.unit.startsWith('single-test/') ? request.unit.slice(12) : null
const source = request.attachments.map((a) => a.content).join('\\n')
const weak = tool !== null && new RegExp(tool + ": \\\\{[^}]*description: 'TODO").test(source.replace(/\\n\\s*/g, ' '))
process.stdout.write(JSON.stringify({ answers: request.questions.map((q) => ({ questionId: q.questionId, score: weak ? 2 : 4, reasoning: weak ? 'the description says nothing about what the tool returns' : 'clear' })), improvementHints: weak ? [{ targetField: 'tools.' + tool + '.description', suggestion: 'say what the tool returns and when to use it', priority: 'high' }] : [] }))
`

/** The judge, and the sample's tests answered from synthetic recordings with a bar of 1 (its tools carry one or two tests): tested and judged. */
const judgeArgs = (): string[] => [
    '--judge-command',
    `node ${join(dir, 'judge.mjs')}`,
    '--judge-model',
    'stand-in-model',
    '--recordings',
    join(dir, 'recordings'),
    '--min-working-tests',
    '1'
]
const io = (): ReturnType<typeof memoryIo> => memoryIo({}, { env: { PATH: process.env.PATH ?? '' } })

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-check-'))
    if (!present) return
    await cp(SAMPLE, join(dir, 'base', 'frankfurter'), { recursive: true })
    await writeFile(join(dir, 'judge.mjs'), JUDGE)
    await writeSyntheticRecordings([join(SAMPLE, 'frankfurter.mjs')], join(dir, 'recordings'))
    // The baseline: the schema as it is, graded into an island.
    await run(['grade', join(dir, 'base'), '--island', join(dir, 'baseline'), '--now', now, ...judgeArgs()], io())
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

async function changedCopy(name: string, edit: (source: string) => string): Promise<string> {
    const target = join(dir, name, 'frankfurter')
    await cp(SAMPLE, target, { recursive: true })
    const file = join(target, 'frankfurter.mjs')
    await writeFile(file, edit(await readFile(file, 'utf8')))
    return join(dir, name)
}

describe.skipIf(!present)('flowmcp-grading check (copies of a real sample schema)', () => {
    it('passes an unchanged schema against its own baseline, keys or not, and appends a Markdown summary', async () => {
        const summary = join(dir, 'summary-ok.md')
        await writeFile(summary, '# earlier step\n')
        const out = io()
        expect(
            await run(
                [
                    'check',
                    join(dir, 'base'),
                    '--baseline',
                    join(dir, 'baseline'),
                    '--min-grade',
                    'C',
                    '--summary',
                    summary,
                    '--now',
                    now,
                    ...judgeArgs()
                ],
                out
            )
        ).toBe(0)
        expect(out.out()).toMatch(/frankfurter\.frankfurter\s+B \d\.\d\d(?: \(raw A\))?\s+B\s+stable\s+ok/)
        const text = await readFile(summary, 'utf8')
        expect(text.startsWith('# earlier step\n## flowmcp-grading check: passed')).toBe(true)
        expect(text).toMatch(/\| frankfurter\.frankfurter \| B \d\.\d\d(?: \(raw A\))? \| B \| stable \| ok \|/)
    })

    it('fails when a lowered tool description makes the judge answer lower, naming the schema, the tool and the answers that cost the points', async () => {
        const changed = await changedCopy('weaker', (s) =>
            s.replace(
                "description: 'Get the latest exchange rates. Optionally specify base currency and target currencies. Default base is EUR. Use listCurrencies for valid currency codes.'",
                "description: 'TODO'"
            )
        )
        const out = io()
        const summary = join(dir, 'summary-weak.md')
        expect(
            await run(
                [
                    'check',
                    changed,
                    '--baseline',
                    join(dir, 'baseline'),
                    '--summary',
                    summary,
                    '--now',
                    now,
                    '--verbose',
                    ...judgeArgs()
                ],
                out
            )
        ).toBe(1)
        expect(out.out()).toMatch(/frankfurter\.frankfurter\s+[CDF] \d\.\d\d\s+B\s+\S+\s+FAILS/)
        expect(out.out()).toMatch(/frankfurter\.frankfurter: grade fell from B to [CDF]/)
        // The tool, and the source lines: the answers at the tool's key, the hint once at the field it names.
        const lines = (await readFile(join(changed, 'frankfurter', 'frankfurter.mjs'), 'utf8')).split('\n')
        const line = lines.findIndex((l) => l.includes("description: 'TODO'")) + 1
        const toolLine = lines.findIndex((l) => /^\s+getLatest: \{/.test(l)) + 1
        const text = out.out()
        expect(text).toContain(`  ${join(changed, 'frankfurter', 'frankfurter.mjs')} (frankfurter.frankfurter): ✖ `)
        expect(text).toContain('    tool getLatest\n')
        expect(text).toMatch(
            new RegExp(
                `\\n      ${toolLine}:\\d+ +warning  Q-single-test-\\d+  .* — 2: the description says nothing about what the tool returns\\n`
            )
        )
        expect(text).toMatch(
            new RegExp(
                `\\n      ${line}:\\d+ +note     HINT-single-test  say what the tool returns and when to use it\\n`
            )
        )
        expect(text.match(/say what the tool returns and when to use it/g)).toHaveLength(1)
        expect(text).toMatch(/\n✖ \d+ problems? \(\d+ errors?, \d+ warnings?(, \d+ notes?)?\)\n/)
        const json = io()
        await run(['check', changed, '--baseline', join(dir, 'baseline'), '--json', '--now', now, ...judgeArgs()], json)
        const parsed = JSON.parse(json.out()) as {
            passed: boolean
            schemas: Array<{
                fixList: Array<{
                    kind: string
                    tool?: string
                    code: string
                    pointer: string
                    line: number | null
                    question?: string
                    hint?: unknown
                }>
            }>
        }
        expect(parsed.passed).toBe(false)
        const fixList = parsed.schemas[0]?.fixList ?? []
        const answers = fixList.filter((f) => f.kind === 'answer' && f.tool === 'getLatest')
        expect(answers.length).toBeGreaterThan(0)
        for (const a of answers)
            expect(a).toMatchObject({ pointer: '/tools/getLatest', line: toolLine, question: expect.any(String) })
        expect(answers.some((a) => 'hint' in a)).toBe(false)
        expect(fixList.filter((f) => f.kind === 'hint')).toEqual([
            expect.objectContaining({
                tool: 'getLatest',
                pointer: '/tools/getLatest/description',
                line,
                placed: 'target',
                hint: {
                    targetField: 'tools.getLatest.description',
                    suggestion: 'say what the tool returns and when to use it',
                    priority: 'high'
                }
            })
        ])
        const summaryText = await readFile(summary, 'utf8')
        expect(summaryText).toMatch(/### frankfurter\.frankfurter\n\n- grade fell from B to [CDF]/)
        expect(summaryText).toMatch(/What to fix first \(✖ \d+ problems \(\d+ errors?, \d+ warnings?/)
        expect(summaryText).toMatch(
            /- `Q-single-test-\d+` .* — 2: the description says nothing about what the tool returns — tool getLatest \(line \d+\)/
        )
    })

    it("the report's What to fix shows the same items in the same order as the CLI's fix list", async () => {
        const changed = await changedCopy('weaker-report', (s) =>
            s.replace(
                "description: 'Get the latest exchange rates. Optionally specify base currency and target currencies. Default base is EUR. Use listCurrencies for valid currency codes.'",
                "description: 'TODO'"
            )
        )
        const island = join(dir, 'weaker-island')
        const out = io()
        await run(['grade', changed, '--island', island, '--json', '--now', now, ...judgeArgs()], out)
        const cli =
            (
                JSON.parse(out.out()) as {
                    schemas: Array<{ fixList: Array<{ code: string; pointer: string; message: string }> }>
                }
            ).schemas[0]?.fixList ?? []
        expect(cli.length).toBeGreaterThan(2)
        const { renderIslandReport } = await import('../../src/report/html-report.js')
        const { fsPortFromNodeLike } = await import('../../src/index.js')
        const html = (
            await renderIslandReport({ fs: fsPortFromNodeLike(await import('node:fs/promises')), root: island })
        ).html
        const section = /<h4>What to fix<\/h4>(.*?)(<\/details><\/details>|<h4>|<\/section>)/s.exec(html)?.[1] ?? ''
        const shown = [
            ...section.matchAll(
                /<li><span class="pill [a-z]+">([^<]+)<\/span>(?: <span class="hint">hint<\/span>)?(?: <b>[^<]+<\/b>)? <code>([^<]+)<\/code>/g
            )
        ].map((m) => [m[1], m[2] === '(schema)' ? '' : m[2]])
        // The report says the same as the CLI, lines collapsed as the CLI collapses them, costliest first.
        const { collapseFixItems } = await import('../../src/fix/fix-list.js')
        const collapsed = collapseFixItems(cli as never).sort((a, b) => b.cost - a.cost)
        expect(shown).toEqual(collapsed.map((l) => [l.code, l.items[0]?.pointer]))
        expect(section).toMatch(/<p class="fixcount">✖ \d+ problems/)
        // The costliest few open, the rest folded.
        expect(collapsed.length).toBeGreaterThan(5)
        expect(html).toContain(
            `<details class="fixmore"><summary>${collapsed.length - 5} more lines, costing less</summary>`
        )
    })

    it('fails on a structural problem the baseline did not have, naming the field', async () => {
        const changed = await changedCopy('broken', (s) =>
            s.replace(
                "            method: 'GET',\n            path: '/v1/latest',",
                "            method: 'FETCH',\n            path: '/v1/latest',"
            )
        )
        const out = io()
        expect(
            await run(['check', changed, '--baseline', join(dir, 'baseline'), '--now', now, ...judgeArgs()], out)
        ).toBe(1)
        expect(out.out()).toMatch(
            /frankfurter\.frankfurter: new error .*frankfurter\.mjs\S* \S+ .*method.* in tool getLatest\n|frankfurter\.frankfurter: new error .*frankfurter\.mjs\S* \S+ .*getLatest.*method/
        )
    })

    it('fails the gate on more warnings than --max-warnings (exit 1), passes within it, and refuses a bound that is not a whole number (exit 2)', async () => {
        const json = io()
        await run(['check', join(dir, 'base'), '--json', '--now', now, ...judgeArgs()], json)
        const warnings = (
            JSON.parse(json.out()) as { schemas: Array<{ fixList: Array<{ severity: string }> }> }
        ).schemas
            .flatMap((s) => s.fixList)
            .filter((f) => f.severity === 'warning').length
        expect(warnings).toBeGreaterThan(0)
        const over = io()
        expect(
            await run(
                ['check', join(dir, 'base'), '--max-warnings', String(warnings - 1), '--now', now, ...judgeArgs()],
                over
            )
        ).toBe(1)
        expect(over.out()).toContain(
            `${warnings} warning${warnings === 1 ? '' : 's'} in the fix lists, more than --max-warnings ${warnings - 1}`
        )
        expect(over.out()).toContain('check failed: 0 schemas, too many warnings')
        // The warnings that fail the gate are listed, though no schema fails on its own.
        expect(over.out()).toMatch(/\(frankfurter\.frankfurter\): ✖ \d+ problems/)
        expect(
            await run(
                ['check', join(dir, 'base'), '--max-warnings', String(warnings), '--now', now, ...judgeArgs()],
                io()
            )
        ).toBe(0)
        const bad = io()
        expect(
            await run(['check', join(dir, 'base'), '--max-warnings', 'many', '--now', now, ...judgeArgs()], bad)
        ).toBe(2)
        expect(bad.err()).toContain('--max-warnings must be a whole number of 0 or more')
    })

    it('checks an island as it is, and refuses a bad --min-grade or nothing to check (exit 2)', async () => {
        const out = io()
        expect(await run(['check', '--island', join(dir, 'baseline'), '--min-grade', 'A'], out)).toBe(2)
        expect(out.err()).toContain('--min-grade A can never pass: a provider schema is graded autonomously')
        expect(await run(['check', '--island', join(dir, 'baseline'), '--min-grade', 'B'], io())).toBe(0)
        expect(await run(['check', '--island', join(dir, 'baseline'), '--min-grade', 'Z'], io())).toBe(2)
        expect(await run(['check'], io())).toBe(2)
        // A baseline that is not there fails the gate (exit 1) saying so, before anything is graded.
        const missing = io()
        expect(
            await run(['check', join(dir, 'base'), '--baseline', join(dir, 'nowhere'), ...judgeArgs()], missing)
        ).toBe(1)
        expect(missing.err()).toContain(
            'does not exist; nothing to compare with, so the check fails (pass --baseline-missing new'
        )
        expect(
            await run(
                [
                    'check',
                    join(dir, 'base'),
                    '--baseline',
                    join(dir, 'nowhere'),
                    '--baseline-missing',
                    'maybe',
                    ...judgeArgs()
                ],
                io()
            )
        ).toBe(2)
    })
})
