import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bytesToBase64, sha256Base64 } from '../../src/hashing/base64.js'
import { createMemoryFs, renderIslandReport, type ReportFsPort } from '../../src/index.js'

const now = '2026-11-24T10:00:00Z'

/** A host's read-only port: only the two methods a report reads through, nothing that writes. */
function readOnly(files: Record<string, string>): ReportFsPort {
    const fs = createMemoryFs(files)
    return { readFile: (path) => fs.readFile(path), readdir: (path) => fs.readdir(path) }
}

const INDEX = JSON.stringify({
    status: 'blocked',
    updatedAt: now,
    schemas: { forecast: { status: 'blocked', grade: null, reason: 'untested', nodes: {} } }
})

describe('renderIslandReport as a library function', () => {
    it('renders an island through a host port that only reads', async () => {
        const report = await renderIslandReport({
            fs: readOnly({ '/island/providers/openmeteo/index.json': INDEX }),
            root: '/island',
            title: 'registry'
        })
        expect(report.errors).toEqual([])
        expect(report.namespaces).toBe(1)
        expect(report.html).toContain('<title>registry</title>')
        expect(report.html).toContain('openmeteo')
    })

    it('reports a missing fs or root as GRA-002 with an empty page, never a throw', async () => {
        const noFs = await renderIslandReport({ root: '/island' } as never)
        expect(noFs.errors.map((e) => [e.code, e.path])).toEqual([['GRA-002', '/fs']])
        expect(noFs.html).toBe('')
        const noRoot = await renderIslandReport({ fs: readOnly({}), root: '' })
        expect(noRoot.errors.map((e) => [e.code, e.path])).toEqual([['GRA-002', '/root']])
        const notAnObject = await renderIslandReport(42 as never)
        expect(notAnObject.errors.map((e) => e.code)).toEqual(['GRA-002'])
    })

    it('reports an island without providers as RPT-001', async () => {
        const report = await renderIslandReport({ fs: readOnly({}), root: '/nowhere' })
        expect(report.errors.map((e) => e.code)).toEqual(['RPT-001'])
    })
})

describe('CSP hashes without node:crypto', () => {
    it('encodes base64 exactly as Node does, padding included', () => {
        fc.assert(
            fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
                expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'))
            }),
            { numRuns: 300, seed: 30 }
        )
    })

    it('hashes text as createHash(sha256).digest(base64) does, for non-ASCII text too', () => {
        for (const text of ['', 'a', 'style{}', '\u25B8 \u00e9\u{1F600}'])
            expect(sha256Base64(text)).toBe(createHash('sha256').update(text, 'utf8').digest('base64'))
    })

    it('gives a different hash for a different text', () => {
        expect(sha256Base64('a')).not.toBe(sha256Base64('b'))
    })
})
