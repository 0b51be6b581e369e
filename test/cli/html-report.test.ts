import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { escapeHtml, renderIslandReport } from '../../src/report/html-report.js'
import { run } from '../../src/cli/run.js'
import { Areas, createMemoryFs, gradeSingleSchema, httpPortFromRecordings, type MemoryFs } from '../../src/index.js'
import { exampleMain, grader, recording, scriptedJudge } from '../grade/helpers.js'
import { memoryIo } from './helpers.js'
import { isCi } from '../support/shared.js'

// Debian's chromium, or the browser CHROMIUM names (.ci/run sets it after installing one). Where neither is there
// the browser tests skip locally; under CI, or when CHROMIUM names a browser that is not there, they fail.
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const browserRequired = isCi() || Boolean(process.env.CHROMIUM)
const inBrowser = existsSync(CHROMIUM) || browserRequired ? it : it.skip
const now = '2026-11-24T10:00:00Z'
const NAMESPACES = ['etherscan', 'openmeteo', 'quakefeed', 'sportsodds']
const HOSTILE = '<img src=x onerror="alert(1)">'

/** The four example providers graded with a judge into one memory island: operational, partial and rejected namespaces. */
async function gradedIsland(): Promise<MemoryFs> {
    const fs = createMemoryFs()
    const { judge } = scriptedJudge(4)
    const recordings = [recording('openmeteo'), recording('etherscan'), recording('quakefeed')]
    for (const [ns, file] of [
        ['etherscan', 'contracts'],
        ['openmeteo', 'forecast'],
        ['quakefeed', 'events'],
        ['sportsodds', 'odds']
    ] as const) {
        const { main, source } = await exampleMain(`providers/${ns}/${file}.mjs`)
        await gradeSingleSchema({
            schema: { main },
            schemaId: `${ns}.${file}`,
            grader,
            options: { fs, root: '/island', now, source, judge, http: httpPortFromRecordings({ recordings }) }
        })
    }
    return fs
}

/** The same island as it was before: openmeteo's forecast graded A (now B). */
function baselineOf(files: Record<string, string>): Record<string, string> {
    const path = '/island/providers/openmeteo/index.json'
    const index = JSON.parse(files[path] as string) as { schemas: { forecast: { grade: string } } }
    index.schemas.forecast.grade = 'A'
    return { ...files, [path]: JSON.stringify(index, null, 4) }
}

let island: MemoryFs
let baseline: MemoryFs
let dir = ''

beforeAll(async () => {
    island = await gradedIsland()
    baseline = createMemoryFs(baselineOf(island.dump().files))
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-report-'))
    // The same islands on disk, for the command and the browser.
    for (const [base, fs] of [
        [dir, island],
        [join(dir, 'before'), baseline]
    ] as const) {
        for (const [path, text] of Object.entries(fs.dump().files)) {
            const target = join(base, path)
            await mkdir(dirname(target), { recursive: true })
            await writeFile(target, text)
        }
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
        expect(forecast).toMatch(
            /ref <code>forecast\/_gradings\/tools-aggregate-schema--2026-11-24T10-00-00Z\.json<\/code>/
        )
        expect(forecast).toContain('<code>Q-tools-aggregate-schema-02</code>')
        expect(forecast).toMatch(/Recomputed: <b>B<\/b>/)
        expect(forecast).toContain('<li><b>band</b>')
    })

    it('is self-contained: no external asset, a CSP that allows only its own style and script (by hash)', async () => {
        const { html } = await renderIslandReport({
            fs: island,
            root: '/island',
            baseline: { fs: baseline, root: '/island' }
        })
        expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//)
        const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/
            .exec(html)?.[1]
            ?.replaceAll('&#39;', "'")
        expect(csp).toMatch(
            /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; script-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'; base-uri 'none'; form-action 'none'$/
        )
        // The hashes are those of the page's one style and one script.
        const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
        const style = html.match(/<style>([\s\S]*?)<\/style>/g) ?? []
        const script = html.match(/<script>([\s\S]*?)<\/script>/g) ?? []
        expect([style.length, script.length]).toEqual([1, 1])
        expect(csp).toContain(`style-src ${hash((style[0] as string).slice(7, -8))};`)
        expect(csp).toContain(`script-src ${hash((script[0] as string).slice(8, -9))};`)
        // Nothing the CSP would block: no inline style attribute, no inline handler, no external SVG reference.
        expect(html).not.toMatch(/\sstyle=/)
        expect(html).not.toMatch(/\son[a-z]+=/)
        expect(html).not.toMatch(/xlink:href|<image\b|<use\b/)
    })

    it('escapes untrusted text, keeps refs inside the island and shows an unreadable index', async () => {
        const fs = createMemoryFs({
            '/island/providers/evil/index.json': JSON.stringify({
                namespace: 'evil',
                status: 'partial',
                schemas: {
                    [HOSTILE]: {
                        status: 'blocked',
                        reason: '</details><script>alert(2)</script>',
                        toolsAggregate: { status: 'graded', grade: 'B', ref: '../../../etc/passwd' },
                        tools: {}
                    }
                },
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
        const fs = createMemoryFs({
            '/island/providers/x/index.json': JSON.stringify({
                status: 'partial',
                schemas: {
                    s: {
                        status: 'graded',
                        toolsAggregate: { status: 'graded', ref: 's/_gradings/missing.json' },
                        tools: { t: { status: 'graded', ref: 's/tools/t/_gradings/a.json' } }
                    }
                }
            })
        })
        expect((await renderIslandReport({ fs, root: '/island' })).errors.map((e) => e.code)).toEqual([
            'RPT-003',
            'RPT-003'
        ])
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

/** The HTML of one overview card (by id), up to the next card. */
function card(html: string, id: string): string {
    const start =
        html.indexOf(`<div class="card" id="${id}">`) >= 0
            ? html.indexOf(`<div class="card" id="${id}">`)
            : html.indexOf(`<div class="card wide" id="${id}">`)
    expect(start).toBeGreaterThan(-1)
    const next = html.indexOf('<div class="card', start + 1)
    return html.slice(start, next > -1 ? next : html.indexOf('</section>', start))
}

/** Bar chart rows of a card as { key: count }. */
function chartCounts(html: string, id: string): Record<string, number> {
    return Object.fromEntries(
        [...card(html, id).matchAll(/<tr data-key="([^"]+)"[^>]*>.*?<td class="n">(\d+)<\/td><\/tr>/g)].map((m) => [
            m[1] as string,
            Number(m[2])
        ])
    )
}

/** The text of some HTML, tags removed and entities of the escaper decoded. */
const text = (html: string): string =>
    html
        .replace(/<[^>]*>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&')

/** The rows of a table (by id) as arrays of cell texts. */
function tableRows(html: string, id: string): string[][] {
    const start = html.indexOf(`id="${id}"`)
    const table = html.slice(start, html.indexOf('</table>', start))
    return [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) =>
        [...(r[1] as string).matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((c) => text(c[1] as string))
    )
}

const PROVIDER_AREAS = [
    'single-test',
    'tools-aggregate-schema',
    'tools-aggregate-namespace',
    'namespace-description',
    'namespace-skills',
    'about-namespace'
]

describe('renderIslandReport: the overview', () => {
    it('counts the schemas by grade and by status', async () => {
        const { html } = await renderIslandReport({ fs: island, root: '/island' })
        expect(html.indexOf('<section class="overview"')).toBeLessThan(html.indexOf('<h2>Namespaces</h2>'))
        expect(chartCounts(html, 'grades')).toEqual({ A: 0, B: 1, C: 0, D: 0, F: 0, REJECTED: 1, 'no grade': 2 })
        expect(chartCounts(html, 'states')).toEqual({ rejected: 1, blocked: 2, provisional: 0, pending: 0, graded: 1 })
        // Bars are sized by SVG attributes and coloured by class: the CSP blocks inline styles.
        expect(card(html, 'grades')).toContain('<rect class="g-b" width="25%" height="14" rx="3"/>')
        expect(card(html, 'grades')).toContain('<rect class="g-none" width="50%" height="14" rx="3"/>')
    })

    it('counts a schema graded from deterministic answers only as provisional (state.json), not pending', async () => {
        const fs = createMemoryFs()
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        await gradeSingleSchema({
            schema: { main },
            schemaId: 'openmeteo.forecast',
            options: {
                fs,
                root: '/island',
                now,
                source,
                http: httpPortFromRecordings({ recordings: [recording('openmeteo')] })
            }
        })
        const { html } = await renderIslandReport({ fs, root: '/island' })
        expect(chartCounts(html, 'states')).toEqual({ rejected: 0, blocked: 0, provisional: 1, pending: 0, graded: 0 })
        expect(chartCounts(html, 'grades')['no grade']).toBe(1)
        expect(tableRows(html, 't-schemas')[1]).toEqual(['openmeteo', 'forecast', 'pending provisional', '—', '2', '0'])
    })

    it('draws a heat map of area × namespace: one row per area, one column per namespace, coloured by band', async () => {
        const { html } = await renderIslandReport({ fs: island, root: '/island' })
        const heat = card(html, 'heat')
        const [head, ...rows] = tableRows(heat, 't-heat')
        expect(head).toEqual(['area', 'island', ...NAMESPACES])
        expect(rows.map((r) => r[0]).sort()).toEqual([...PROVIDER_AREAS].sort())
        for (const row of rows) expect(row).toHaveLength(2 + NAMESPACES.length)
        const byArea = Object.fromEntries(rows.map((r) => [r[0], r.slice(1)]))
        // island, etherscan, openmeteo, quakefeed, sportsodds
        // A schema with an untested (key-gated) or failing tool has no tools aggregate: it rests on every tool (blocked by precondition).
        expect(byArea['tools-aggregate-schema']).toEqual([
            '2.781 rejected · 2 pending',
            'pending',
            'B 4.56',
            'pending',
            'REJECTED'
        ])
        expect(byArea['single-test']).toEqual([
            '3.311 rejected · 3 blocked',
            'blocked2 nodes',
            'B 4.08',
            'B 4.08+1 blocked',
            'REJECTED'
        ])
        expect(byArea['about-namespace']?.slice(1)).toEqual(['blocked', 'blocked', 'blocked', 'blocked'])
        expect(byArea['namespace-skills']).toEqual(['none', 'none', 'none', 'none', 'none'])
        // The costliest area first: tools-aggregate-schema (a rejected aggregate, two waiting on blocked tools).
        expect(rows[0]?.[0]).toBe('tools-aggregate-schema')
        const cells = [...heat.matchAll(/<td class="h ([^"]+)"/g)].map((m) => m[1] as string)
        expect(cells).toHaveLength(PROVIDER_AREAS.length * (1 + NAMESPACES.length))
        for (const c of cells) expect(c).toMatch(/^(isl )?(g-a|g-b|g-c|g-d|g-f|g-rej|g-none|empty)$/)
        expect(heat).toContain(
            '<td class="h g-rej" title="single-test in sportsodds: 1 node, worst grade REJECTED, 1 rejected"><b>REJECTED</b></td>'
        )
    })

    it('lists the schemas graded worse than in a baseline island, before → after', async () => {
        const { html, errors } = await renderIslandReport({
            fs: island,
            root: '/island',
            baseline: { fs: baseline, root: '/island/' }
        })
        expect(errors).toEqual([])
        const worse = card(html, 'worse')
        expect(text(worse)).toContain('Compared with /island: 4 schemas in both · 1 worse · 0 better · 0 new since.')
        expect([...worse.matchAll(/<li>(.*?)<\/li>/g)].map((m) => text(m[1] as string))).toEqual([
            'openmeteo / forecast A → B'
        ])
        expect(worse).toContain('<span class="pill g-a">A</span> → <span class="pill g-b">B</span>')
        // The name links to the schema's row further down.
        const id = /<li><a href="#([^"]+)">openmeteo/.exec(worse)?.[1]
        expect(html).toContain(`<details class="schema" id="${id}"><summary><span class="name">forecast</span>`)
    })

    const indexOf = (schemas: Record<string, { status: string; grade?: string }>): string =>
        JSON.stringify({
            status: 'partial',
            schemas: Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, { ...v, tools: {} }]))
        })
    it.each([
        ['a lower grade', { status: 'stable', grade: 'A' }, { status: 'stable', grade: 'B' }, 'A → B'],
        ['F to REJECTED', { status: 'graded', grade: 'F' }, { status: 'rejected', grade: 'REJECTED' }, 'F → REJECTED'],
        ['becoming rejected', { status: 'stable', grade: 'C' }, { status: 'rejected' }, 'C → REJECTED'],
        ['becoming blocked', { status: 'stable', grade: 'B' }, { status: 'blocked' }, 'B → blocked'],
        ['pending becoming blocked', { status: 'pending' }, { status: 'blocked' }, 'pending → blocked'],
        ['the same grade', { status: 'stable', grade: 'B' }, { status: 'stable', grade: 'B' }, null],
        ['a better grade', { status: 'graded', grade: 'C' }, { status: 'stable', grade: 'A' }, null],
        ['still blocked', { status: 'blocked' }, { status: 'blocked' }, null],
        ['rejected becoming blocked', { status: 'rejected', grade: 'REJECTED' }, { status: 'blocked' }, null],
        [
            'graded becoming pending (not graded again yet)',
            { status: 'stable', grade: 'B' },
            { status: 'pending' },
            null
        ]
    ])('compares with parsed index files: %s', async (_, before, after, expected) => {
        const fs = createMemoryFs({
            '/now/providers/ns/index.json': indexOf({ s: after, added: { status: 'stable', grade: 'F' } })
        })
        const { html, errors } = await renderIslandReport({
            fs,
            root: '/now',
            baseline: { index: { ns: JSON.parse(indexOf({ s: before })), gone: {} } }
        })
        expect(errors).toEqual([])
        const worse = card(html, 'worse')
        expect(text(worse)).toContain('Compared with the given index files: 1 schema in both')
        expect(text(worse)).toContain('1 new since')
        const items = [...worse.matchAll(/<li>(.*?)<\/li>/g)].map((m) => text(m[1] as string))
        expect(items).toEqual(expected === null ? [] : [`ns / s ${expected}`])
        if (expected === null) expect(worse).toContain('No schema got worse since the baseline.')
    })

    it('says how to get the comparison without a baseline, and gives RPT-004 for a baseline that is no island', async () => {
        const without = await renderIslandReport({ fs: island, root: '/island' })
        expect(text(card(without.html, 'worse'))).toContain('No baseline given: pass --baseline <island>')
        const missing = await renderIslandReport({
            fs: island,
            root: '/island',
            baseline: { fs: createMemoryFs(), root: '/elsewhere' }
        })
        expect(missing.errors.map((e) => e.code)).toEqual(['RPT-004'])
        expect(missing.html).toContain('RPT-004: The baseline /elsewhere does not exist; nothing was compared')
        expect(text(card(missing.html, 'worse'))).toContain('The baseline could not be read')
        const bare = await renderIslandReport({
            fs: island,
            root: '/island',
            baseline: { fs: createMemoryFs({ '/b/notes.txt': '' }), root: '/b' }
        })
        expect(bare.html).toContain('RPT-004: The baseline /b holds no providers folder; nothing was compared')
        // An unreadable index makes the whole baseline unreadable, as for `check --baseline`: nothing is compared.
        const broken = await renderIslandReport({
            fs: island,
            root: '/island',
            baseline: { fs: createMemoryFs({ '/b/providers/openmeteo/index.json': '{' }), root: '/b' }
        })
        expect(broken.errors.map((e) => e.code)).toEqual(['RPT-002'])
        expect(text(card(broken.html, 'worse'))).toContain('The baseline could not be read')
    })
})

describe('renderIslandReport: tables that sort and filter', () => {
    it('lists the namespaces and every schema worst first without script', async () => {
        const { html } = await renderIslandReport({ fs: island, root: '/island' })
        expect(tableRows(html, 't-namespaces').map((r) => r[0])).toEqual([
            'namespace',
            'sportsodds',
            'etherscan',
            'quakefeed',
            'openmeteo'
        ])
        expect(tableRows(html, 't-schemas')).toEqual([
            ['namespace', 'schema', 'status', 'grade', 'tools', 'blockers'],
            ['sportsodds', 'odds', 'rejected', 'REJECTED', '1', '2'],
            ['etherscan', 'contracts', 'blocked', '—', '2', '2'],
            ['quakefeed', 'events', 'blocked', '—', '2', '1'],
            ['openmeteo', 'forecast', 'stable', expect.stringMatching(/^B \d\.\d\d( \(raw A\))?$/), '2', '0']
        ])
    })

    it('gives the script what it sorts by (data-v, ascending is worst first) and a filter it reveals', async () => {
        const { html } = await renderIslandReport({ fs: island, root: '/island' })
        for (const [id, label] of [
            ['t-namespaces', 'namespaces'],
            ['t-schemas', 'schemas']
        ]) {
            expect(html).toContain(
                `<div class="tablebar" hidden><input type="search" class="filter" data-table="${id}" placeholder="Filter ${label}…" aria-label="Filter ${label}">`
            )
            expect(html).toContain(`<table class="summary sortable" id="${id}"><thead><tr><th scope="col">`)
        }
        const rows = html.slice(html.indexOf('id="t-schemas"'))
        expect(rows).toContain(
            '<tr><td data-v="sportsodds"><a href="#ns-3">sportsodds</a></td><td data-v="odds"><a href="#ns-3-s-0">odds</a></td><td data-v="0">'
        )
        expect(rows).toContain('<td data-v="0"><span class="gr"><span class="pill g-rej">REJECTED</span></span></td>')
        expect(rows).toMatch(
            /<td data-v="4"><span class="gr"><span class="pill g-b">B \d\.\d\d( \(raw A\))?<\/span><\/span><\/td>/
        )
    })

    it('escapes a hostile schema name in every table and in the sort key', async () => {
        const fs = createMemoryFs({
            '/island/providers/evil/index.json': JSON.stringify({
                status: 'partial',
                schemas: { [HOSTILE]: { status: 'graded', grade: HOSTILE, tools: {} } }
            })
        })
        const { html } = await renderIslandReport({
            fs,
            root: '/island',
            baseline: { index: { evil: { schemas: { [HOSTILE]: { status: 'stable', grade: 'A' } } } } }
        })
        expect(html).not.toContain(HOSTILE)
        expect(html).toContain(`data-v="${escapeHtml(HOSTILE)}"`)
    })
})

describe('renderIslandReport: each answer with its question', () => {
    it('shows the question text of the catalogue beside its id, and the added checks worded', async () => {
        const { html } = await renderIslandReport({ fs: island, root: '/island' })
        const questions = Areas.questions({ area: 'single-test' }).questions
        expect(questions.length).toBeGreaterThan(0)
        for (const q of questions)
            expect(html).toContain(
                `<td class="q"><code>${q.id}</code><span class="qtext">${escapeHtml(q.question)}</span></td>`
            )
        const schemaQuestion = Areas.questions({ area: 'tools-aggregate-schema' }).questions[1]
        expect(html).toContain(
            `<code>${schemaQuestion?.id}</code><span class="qtext">${escapeHtml(schemaQuestion?.question)}</span>`
        )
        expect(html).toContain(
            '<code>Q-api-availability</code><span class="qtext">Does the API answer the schema tests (the data pretest)? (a check this grader adds to the catalogue)'
        )
    })

    it('shows an id the catalogue does not know without a text', async () => {
        const entry = {
            gradingId: 'x',
            area: 'single-test',
            gradings: [
                { questionId: 'Q-unknown-01', score: 'pass', weight: 1 },
                { questionId: '<b>x</b>', score: 4, weight: 1 }
            ]
        }
        const fs = createMemoryFs({
            '/island/providers/x/index.json': JSON.stringify({
                status: 'partial',
                schemas: {
                    s: { status: 'graded', toolsAggregate: { status: 'graded', ref: 's/_gradings/e.json' }, tools: {} }
                }
            }),
            '/island/providers/x/s/_gradings/e.json': JSON.stringify(entry)
        })
        const { html } = await renderIslandReport({ fs, root: '/island' })
        expect(html).toContain('<td class="q"><code>Q-unknown-01</code></td>')
        expect(html).toContain('<td class="q"><code>&lt;b&gt;x&lt;/b&gt;</code></td>')
    })
})

describe('renderIslandReport tells what the island holds', () => {
    it('says provisional and what finishes it, counts every rollup status, and shows the judge hints under their node', async () => {
        const fs = createMemoryFs()
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        // Offline without a judge: provisional, nothing graded.
        await gradeSingleSchema({
            schema: { main },
            schemaId: 'openmeteo.forecast',
            options: { fs, root: '/island', now, source }
        })
        const offline = (await renderIslandReport({ fs, root: '/island' })).html
        expect(offline).toMatch(/<b>provisional<\/b>: \d+ units? answered from deterministic answers only, not graded/)
        expect(offline).toContain('--judge-command')
        expect(offline).toMatch(
            /1 namespaces · 1 schemas · namespaces: 0 operational · 0 partial · (1 blocked · 0 pending|0 blocked · 1 pending) · 0 rejected · 0 unreadable · 1 provisional/
        )
        // With a judge that gives hints: they appear under the node they came with.
        const judge = async (request: {
            area: string
            questions: ReadonlyArray<{ questionId: string }>
        }): Promise<string> =>
            JSON.stringify({
                answers: request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: 'fine' })),
                improvementHints: [
                    {
                        targetField: 'tools.getCurrentWeather.description',
                        suggestion: 'name the units of the values',
                        priority: 'high'
                    }
                ]
            })
        await gradeSingleSchema({
            schema: { main },
            schemaId: 'openmeteo.forecast',
            grader,
            options: {
                fs,
                root: '/island',
                now: '2026-11-24T11:00:00Z',
                source,
                judge,
                http: httpPortFromRecordings({ recordings: [recording('openmeteo')] })
            }
        })
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

    it('compares with an earlier copy of the island with --baseline', async () => {
        const out = join(dir, 'compared.html')
        const io = memoryIo()
        expect(
            await run(['report', join(dir, 'island'), '--baseline', join(dir, 'before', 'island'), '--out', out], io)
        ).toBe(0)
        const worse = card(await readFile(out, 'utf8'), 'worse')
        expect([...worse.matchAll(/<li>(.*?)<\/li>/g)].map((m) => text(m[1] as string))).toEqual([
            'openmeteo / forecast A → B'
        ])
        expect(text(worse)).toContain(`Compared with ${join(dir, 'before', 'island')}: 4 schemas in both`)
    })

    it('refuses a baseline that is not an island (exit 2, RPT-004) and writes nothing', async () => {
        const out = join(dir, 'refused.html')
        const io = memoryIo()
        expect(await run(['report', join(dir, 'island'), '--baseline', join(dir, 'before'), '--out', out], io)).toBe(2)
        expect(io.err()).toContain('RPT-004')
        expect(existsSync(out)).toBe(false)
    })

    it('refuses a folder that is not an island, and a missing argument (exit 2)', async () => {
        const io = memoryIo()
        expect(await run(['report', join(dir, 'island', 'providers')], io)).toBe(2)
        expect(io.err()).toContain('RPT-001')
        expect(await run(['report'], memoryIo())).toBe(2)
    })
})

/** Runs Debian's chromium headless on a file; resolves with its stdout. */
function chromium(args: readonly string[], file: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
        execFile(
            CHROMIUM,
            [
                '--headless=new',
                '--no-sandbox',
                '--disable-gpu',
                '--hide-scrollbars',
                `--user-data-dir=${join(dir, 'profile')}`,
                ...args,
                `file://${file}`
            ],
            { timeout: 60_000, maxBuffer: 32 * 1024 * 1024 },
            (error, stdout) => (error !== null ? reject(error) : resolve(stdout))
        )
    })
}

/** Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what chromium writes) into its size and a pixel reader. */
function decodePng(png: Buffer): {
    width: number
    height: number
    pixel: (x: number, y: number) => [number, number, number]
} {
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
    let width = 0
    let height = 0
    let channels = 0
    const data: Buffer[] = []
    for (let at = 8; at < png.length; ) {
        const length = png.readUInt32BE(at)
        const type = png.toString('latin1', at + 4, at + 8)
        const chunk = png.subarray(at + 8, at + 8 + length)
        if (type === 'IHDR') {
            width = chunk.readUInt32BE(0)
            height = chunk.readUInt32BE(4)
            expect([chunk[8], chunk[12]]).toEqual([8, 0])
            channels = chunk[9] === 6 ? 4 : chunk[9] === 2 ? 3 : 0
            expect(channels).toBeGreaterThan(0)
        }
        if (type === 'IDAT') data.push(chunk)
        at += 12 + length
    }
    const raw = inflateSync(Buffer.concat(data))
    const stride = width * channels
    const out = Buffer.alloc(stride * height)
    for (let y = 0; y < height; y++) {
        const filter = raw[y * (stride + 1)] as number
        for (let x = 0; x < stride; x++) {
            const value = raw[y * (stride + 1) + 1 + x] as number
            const a = x >= channels ? (out[y * stride + x - channels] as number) : 0
            const b = y > 0 ? (out[(y - 1) * stride + x] as number) : 0
            const c = x >= channels && y > 0 ? (out[(y - 1) * stride + x - channels] as number) : 0
            const p = a + b - c
            const paeth =
                Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
                    ? a
                    : Math.abs(p - b) <= Math.abs(p - c)
                      ? b
                      : c
            out[y * stride + x] = (value + [0, a, b, (a + b) >> 1, paeth][filter]!) & 255
        }
    }
    return {
        width,
        height,
        pixel: (x, y) => [
            out[y * stride + x * channels] as number,
            out[y * stride + x * channels + 1] as number,
            out[y * stride + x * channels + 2] as number
        ]
    }
}

describe('the report in headless Chromium', () => {
    it.runIf(browserRequired)('finds the browser it must run in (CI installs it: .ci/run)', () => {
        expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install chromium (apt-get install -y chromium)`).toBe(
            true
        )
    })

    inBrowser(
        'renders every namespace (Debian chromium, --dump-dom)',
        async () => {
            const file = join(dir, 'chromium.html')
            await writeFile(file, (await renderIslandReport({ fs: island, root: '/island' })).html)
            const dom = await chromium(['--dump-dom'], file)
            const summary = dom.slice(
                dom.indexOf('<table class="summary sortable" id="t-namespaces">'),
                dom.indexOf('</table>', dom.indexOf('id="t-namespaces"'))
            )
            for (const ns of NAMESPACES) expect(summary).toContain(`>${ns}</a>`)
            // The inline script ran under the page's own CSP: the toolbar and the filters it reveals are no longer hidden.
            expect(dom).toContain('<div class="toolbar">')
            expect(dom).toContain('<div class="tablebar"><input type="search" class="filter" data-table="t-schemas"')
            expect(dom).toContain('<span class="st bad">rejected</span>')
        },
        90_000
    )

    inBrowser(
        'sorts a table by the clicked header and filters its rows (the page script, under its CSP)',
        async () => {
            const { html } = await renderIslandReport({ fs: island, root: '/island' })
            // A test driver after the page's own script: clicks "grade" twice (best first), then filters; its hash joins the CSP.
            const driver = `const h=document.querySelectorAll('#t-schemas thead th')[3];h.click();h.click();const f=document.querySelector('input[data-table="t-namespaces"]');f.value='METEO';f.dispatchEvent(new Event('input'))`
            const page = html
                .replace(
                    'script-src ',
                    `script-src 'sha256-${createHash('sha256').update(driver).digest('base64')}' `.replaceAll(
                        "'",
                        '&#39;'
                    )
                )
                .replace('</body>', `<script>${driver}</script>\n</body>`)
            const file = join(dir, 'sort.html')
            await writeFile(file, page)
            const dom = await chromium(['--dump-dom'], file)
            expect(dom).toContain('<th scope="col" tabindex="0" class="sort" aria-sort="descending">grade</th>')
            // Descending by grade: the best first, then REJECTED, then the schemas without a grade (in their previous order).
            const sorted = tableRows(dom, 't-schemas')
                .slice(1)
                .map((r) => `${r[1]} ${r[3]}`)
            // The grade cell carries the score it comes from (B 4.62), sorted by the letter.
            expect(sorted[0]).toMatch(/^forecast B \d\.\d\d( \(raw A\))?$/)
            expect(sorted.map((r) => r.replace(/ \d\.\d\d( \(raw A\))?$/, ''))).toEqual([
                'forecast B',
                'odds REJECTED',
                'contracts —',
                'events —'
            ])
            const namespaces = dom.slice(
                dom.indexOf('id="t-namespaces"'),
                dom.indexOf('</table>', dom.indexOf('id="t-namespaces"'))
            )
            expect(
                [...namespaces.matchAll(/<tr( hidden="")?><td data-v="([a-z]+)">/g)].map(
                    (m) => `${m[2]}${m[1] !== undefined ? ' hidden' : ''}`
                )
            ).toEqual(['sportsodds hidden', 'etherscan hidden', 'quakefeed hidden', 'openmeteo'])
        },
        90_000
    )

    inBrowser(
        'draws the overview readably at 1200×900 (screenshot: distribution, heat map, worse since the baseline)',
        async () => {
            const { html, errors } = await renderIslandReport({
                fs: island,
                root: '/island',
                title: 'Island overview',
                baseline: { fs: baseline, root: '/island' }
            })
            expect(errors).toEqual([])
            const file = join(dir, 'overview.html')
            const shot = join(dir, 'overview.png')
            await writeFile(file, html)
            await chromium([`--screenshot=${shot}`, '--window-size=1200,900'], file)
            const png = await readFile(shot)
            expect((await stat(shot)).size).toBeGreaterThan(30_000)
            const image = decodePng(png)
            expect([image.width, image.height]).toEqual([1200, 900])
            // Not blank: most rows of the overview (y 120–800) hold ink, and the bars and cells carry their band colours.
            const near = ([r, g, b]: number[], [R, G, B]: number[]): boolean =>
                Math.abs(r! - R!) + Math.abs(g! - G!) + Math.abs(b! - B!) < 24
            let inked = 0
            const seen = new Set<string>()
            const colours: Record<string, number[]> = {
                rejected: [0x6d, 0x1a, 0x1a],
                'bar B': [0x7c, 0xb3, 0x42],
                'cell B': [0xe6, 0xf2, 0xc9],
                blocked: [0xef, 0x6c, 0x00]
            }
            for (let y = 120; y < 800; y += 4) {
                let ink = false
                for (let x = 0; x < 1200; x += 3) {
                    const p = image.pixel(x, y)
                    if (!near(p, [255, 255, 255])) ink = true
                    for (const [name, c] of Object.entries(colours)) if (near(p, c)) seen.add(name)
                }
                if (ink) inked++
            }
            expect(inked).toBeGreaterThan(((800 - 120) / 4) * 0.8)
            expect([...seen].sort()).toEqual(Object.keys(colours).sort())
        },
        90_000
    )
})
