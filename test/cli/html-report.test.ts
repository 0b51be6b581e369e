import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { escapeHtml, renderIslandReport } from '../../src/cli/html-report.js'
import { run } from '../../src/cli/run.js'
import { createMemoryFs, gradeSingleSchema, httpPortFromRecordings, type MemoryFs } from '../../src/index.js'
import { exampleMain, grader, recording, scriptedJudge } from '../grade/helpers.js'
import { memoryIo } from './helpers.js'

const CHROMIUM = '/usr/bin/chromium'
const now = '2026-11-24T10:00:00Z'
const NAMESPACES = ['etherscan', 'openmeteo', 'quakefeed', 'sportsodds']
const HOSTILE = '<img src=x onerror="alert(1)">'

/** The four example providers graded with a judge into one memory island: operational, partial and rejected namespaces. */
async function gradedIsland(): Promise<MemoryFs> {
    const fs = createMemoryFs()
    const { judge } = scriptedJudge(4)
    const recordings = [recording('openmeteo'), recording('etherscan'), recording('quakefeed')]
    for (const [ns, file] of [['etherscan', 'contracts'], ['openmeteo', 'forecast'], ['quakefeed', 'events'], ['sportsodds', 'odds']] as const) {
        const { main, source } = await exampleMain(`providers/${ns}/${file}.mjs`)
        await gradeSingleSchema({ schema: { main }, schemaId: `${ns}.${file}`, grader, options: { fs, root: '/island', now, source, judge, http: httpPortFromRecordings({ recordings }) } })
    }
    return fs
}

let island: MemoryFs
let dir = ''

beforeAll(async () => {
    island = await gradedIsland()
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-report-'))
    // The same island on disk, for the command and the browser.
    for (const [path, text] of Object.entries(island.dump().files)) {
        const target = join(dir, path)
        await mkdir(dirname(target), { recursive: true })
        await writeFile(target, text)
    }
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

describe('escapeHtml', () => {
    it.each([
        ['<script>alert("x")</script>', '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'],
        ["a & b's", 'a &amp; b&#39;s'],
        [null, ''],
        [3.5, '3.5'],
        [{ a: '<' }, '{&quot;a&quot;:&quot;&lt;&quot;}']
    ])('escapes %j', (value, expected) => {
        expect(escapeHtml(value)).toBe(expected)
    })
})

describe('renderIslandReport', () => {
    it('lists every namespace with its status and grade, and blocked and rejected nodes', async () => {
        const { html, namespaces, errors } = await renderIslandReport({ fs: island, root: '/island' })
        expect(errors).toEqual([])
        expect(namespaces).toBe(4)
        for (const ns of NAMESPACES) expect(html).toContain(`>${ns}</a>`)
        expect(html).toContain('<span class="st bad">rejected</span>')
        expect(html).toContain('<span class="st warn">blocked</span>')
        expect(html).toContain('veto: api-key-domain-mismatch')
        expect(html).toContain('IDX-013: Fewer than 3 working tests')
    })

    it('opens each node to the entry behind it: its answers and the recomputed grade', async () => {
        const { html } = await renderIslandReport({ fs: island, root: '/island' })
        const forecast = html.slice(html.indexOf('<span class="name">forecast</span>'))
        expect(forecast).toMatch(/ref <code>forecast\/_gradings\/tools-aggregate-schema--2026-11-24T10-00-00Z\.json<\/code>/)
        expect(forecast).toContain('<code>Q-tools-aggregate-schema-02</code>')
        expect(forecast).toMatch(/Recomputed: <b>B<\/b>/)
        expect(forecast).toContain('<li><b>band</b>')
    })

    it('is self-contained: no external asset, a CSP that allows only its own style and script', async () => {
        const { html } = await renderIslandReport({ fs: island, root: '/island' })
        expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//)
        expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[A-Za-z0-9+/=]+&#39;; script-src &#39;sha256-/)
        expect(html.match(/<script>/g)).toHaveLength(1)
    })

    it('escapes untrusted text, keeps refs inside the island and shows an unreadable index', async () => {
        const fs = createMemoryFs({
            '/island/providers/evil/index.json': JSON.stringify({
                namespace: 'evil',
                status: 'partial',
                schemas: { [HOSTILE]: { status: 'blocked', reason: '</details><script>alert(2)</script>', toolsAggregate: { status: 'graded', grade: 'B', ref: '../../../etc/passwd' }, tools: {} } },
                blockers: [{ node: `schemas.${HOSTILE}`, reason: '<b>bold</b>' }]
            }),
            '/island/providers/broken/index.json': '{ not json',
            '/island/providers/gone/_gradings/.keep': ''
        })
        const { html, errors } = await renderIslandReport({ fs, root: '/island/' })
        expect(html).not.toContain(HOSTILE)
        expect(html).not.toContain('<script>alert(2)')
        expect(html).not.toContain('<b>bold</b>')
        expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;')
        expect(html).toContain('is not a relative path inside the island; not read')
        expect(html).toContain('<span class="st bad">unreadable</span>')
        expect(errors.map((e) => e.code)).toEqual(['RPT-002', 'RPT-002'])
    })

    it('reports RPT-003 for a ref whose entry is missing, and reads at most maxEntries entries', async () => {
        const fs = createMemoryFs({ '/island/providers/x/index.json': JSON.stringify({ status: 'partial', schemas: { s: { status: 'graded', toolsAggregate: { status: 'graded', ref: 's/_gradings/missing.json' }, tools: { t: { status: 'graded', ref: 's/tools/t/_gradings/a.json' } } } } }) })
        expect((await renderIslandReport({ fs, root: '/island' })).errors.map((e) => e.code)).toEqual(['RPT-003', 'RPT-003'])
        const capped = await renderIslandReport({ fs, root: '/island', maxEntries: 0 })
        expect(capped.errors).toEqual([])
        expect(capped.html).toContain('the report reads at most 0 entries')
    })

    it('gives RPT-001 and still a page when the root holds no providers folder', async () => {
        const { html, namespaces, errors } = await renderIslandReport({ fs: createMemoryFs(), root: '/nowhere' })
        expect(errors.map((e) => e.code)).toEqual(['RPT-001'])
        expect(namespaces).toBe(0)
        expect(html).toContain('No namespaces.')
    })
})

describe('renderIslandReport tells what the island holds', () => {
    it('says provisional and what finishes it, counts every rollup status, and shows the judge hints under their node', async () => {
        const fs = createMemoryFs()
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        // Offline without a judge: provisional, nothing graded.
        await gradeSingleSchema({ schema: { main }, schemaId: 'openmeteo.forecast', options: { fs, root: '/island', now, source } })
        const offline = (await renderIslandReport({ fs, root: '/island' })).html
        expect(offline).toMatch(/<b>provisional<\/b>: \d+ units? answered from deterministic answers only, not graded/)
        expect(offline).toContain('--judge-command')
        expect(offline).toMatch(/1 namespaces · 1 schemas · 0 operational · 0 partial · (1 blocked · 0 pending|0 blocked · 1 pending) · 0 rejected · 0 unreadable · 1 provisional/)
        // With a judge that gives hints: they appear under the node they came with.
        const judge = async (request: { area: string; questions: ReadonlyArray<{ questionId: string }> }): Promise<string> =>
            JSON.stringify({ answers: request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: 'fine' })), improvementHints: [{ targetField: 'tools.getCurrentWeather.description', suggestion: 'name the units of the values', priority: 'high' }] })
        await gradeSingleSchema({ schema: { main }, schemaId: 'openmeteo.forecast', grader, options: { fs, root: '/island', now: '2026-11-24T11:00:00Z', source, judge, http: httpPortFromRecordings({ recordings: [recording('openmeteo')] }) } })
        const judged = (await renderIslandReport({ fs, root: '/island' })).html
        expect(judged).toContain('<h4>Improvement hints</h4>')
        expect(judged).toContain('name the units of the values')
        expect(judged).not.toContain('<b>provisional</b>')
    })
})

describe('flowmcp-grading report', () => {
    it('writes the page with --out and names what it wrote', async () => {
        const out = join(dir, 'report.html')
        const io = memoryIo()
        expect(await run(['report', join(dir, 'island'), '--out', out], io)).toBe(0)
        expect(io.out()).toBe(`wrote ${out}: 4 namespaces\n`)
        expect(await readFile(out, 'utf8')).toContain('>sportsodds</a>')
    })

    it('prints the page on stdout without --out, and a JSON summary with --json', async () => {
        const io = memoryIo()
        expect(await run(['report', join(dir, 'island')], io)).toBe(0)
        expect(io.out()).toMatch(/^<!doctype html>/)
        const json = memoryIo()
        expect(await run(['report', join(dir, 'island'), '--json'], json)).toBe(0)
        expect(JSON.parse(json.out())).toMatchObject({ ok: true, out: null, namespaces: 4, selections: 0, errors: [] })
    })

    it('refuses a folder that is not an island, and a missing argument (exit 2)', async () => {
        const io = memoryIo()
        expect(await run(['report', join(dir, 'island', 'providers')], io)).toBe(2)
        expect(io.err()).toContain('RPT-001')
        expect(await run(['report'], memoryIo())).toBe(2)
    })
})

describe('the report in headless Chromium', () => {
    it.skipIf(!existsSync(CHROMIUM))('renders every namespace (Debian chromium, --dump-dom)', async () => {
        const file = join(dir, 'chromium.html')
        await writeFile(file, (await renderIslandReport({ fs: island, root: '/island' })).html)
        const dom = await new Promise<string>((resolve, reject) => {
            execFile(CHROMIUM, ['--headless=new', '--no-sandbox', '--disable-gpu', `--user-data-dir=${join(dir, 'profile')}`, '--dump-dom', `file://${file}`], { timeout: 60_000, maxBuffer: 32 * 1024 * 1024 }, (error, stdout) => (error !== null ? reject(error) : resolve(stdout)))
        })
        const summary = dom.slice(dom.indexOf('<table class="summary">'), dom.indexOf('</table>'))
        for (const ns of NAMESPACES) expect(summary).toContain(`>${ns}</a>`)
        // The inline script ran under the page's own CSP: the toolbar it reveals is no longer hidden.
        expect(dom).toContain('<div class="toolbar">')
        expect(dom).toContain('<span class="st bad">rejected</span>')
    }, 90_000)
})
