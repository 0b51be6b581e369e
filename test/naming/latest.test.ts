import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { selectLatest } from '../../src/index.js'

describe('selectLatest', () => {
    it('returns the newest snapshot of a logical name (resolveLatest, 03 §4)', () => {
        const names = [
            'prices--2026-05-30T19-44-23Z--93baef35.mjs',
            'prices--2026-06-01T08-00-00Z--0a1b2c3d.mjs',
            'prices--2026-05-01T00-00-00Z--ffffffff.mjs'
        ]
        expect(selectLatest({ names, logicalName: 'prices' })).toEqual({
            file: 'prices--2026-06-01T08-00-00Z--0a1b2c3d.mjs',
            timestamp: '2026-06-01T08-00-00Z',
            matches: 3
        })
    })

    it('never matches a longer name that merely starts with the logical name', () => {
        const names = ['price-entry--2026-06-01T00-00-00Z--00000001.mjs', 'price--2026-05-01T00-00-00Z--00000002.mjs']
        expect(selectLatest({ names, logicalName: 'price' }).file).toBe('price--2026-05-01T00-00-00Z--00000002.mjs')
        const gradings = [
            'tools-aggregate-namespace--2026-06-01T00-00-00Z.json',
            'tools-aggregate-schema--2026-05-01T00-00-00Z.json'
        ]
        expect(selectLatest({ names: gradings, logicalName: 'tools-aggregate-schema' }).file).toBe(
            'tools-aggregate-schema--2026-05-01T00-00-00Z.json'
        )
    })

    it('picks the newest across persona variants when given the area (⚠ C7), where a plain sort would not', () => {
        const names = [
            'about-namespace--ai-engineer--x--2026-06-01T10-00-00Z.json',
            'about-namespace--decision-maker--y--2026-05-01T10-00-00Z.json',
            'about-namespace--2026-05-15T10-00-00Z.json'
        ]
        expect([...names].sort().at(-1)).toBe('about-namespace--decision-maker--y--2026-05-01T10-00-00Z.json')
        expect(selectLatest({ names, logicalName: 'about-namespace' }).file).toBe(
            'about-namespace--ai-engineer--x--2026-06-01T10-00-00Z.json'
        )
    })

    it('picks the newest of one persona variant when given <area>--<persona>--<lens> (⚠ C7)', () => {
        const names = [
            'about-namespace--decision-maker--crypto-trader--2026-05-01T10-00-00Z.json',
            'about-namespace--decision-maker--crypto-trader--2026-05-02T10-00-00Z.json',
            'about-namespace--ai-engineer--x--2026-06-01T10-00-00Z.json'
        ]
        expect(selectLatest({ names, logicalName: 'about-namespace--decision-maker--crypto-trader' }).file).toBe(
            'about-namespace--decision-maker--crypto-trader--2026-05-02T10-00-00Z.json'
        )
    })

    it('ignores temp files and names that do not parse', () => {
        const names = [
            'single-test--2026-05-01T00-00-00Z.json',
            '.single-test--2026-09-01T00-00-00Z.json.1f2e3d.tmp',
            'single-test--2026-09-01T00-00-00Z.json.tmp',
            'single-test--latest.json',
            'README.md'
        ]
        expect(selectLatest({ names, logicalName: 'single-test' })).toEqual({
            file: 'single-test--2026-05-01T00-00-00Z.json',
            timestamp: '2026-05-01T00-00-00Z',
            matches: 1
        })
    })

    it('gives an explicit "no version" instead of a default when nothing matches', () => {
        expect(selectLatest({ names: ['coins--2026-05-01T00-00-00Z--00000001.mjs'], logicalName: 'prices' })).toEqual({
            file: null,
            timestamp: null,
            matches: 0
        })
    })

    it('restricts to one grammar with kind', () => {
        const names = ['single-test--2026-05-01T00-00-00Z.json', 'single-test--2026-06-01T00-00-00Z--00000001.json']
        expect(selectLatest({ names, logicalName: 'single-test', kind: 'grading' }).file).toBe(
            'single-test--2026-05-01T00-00-00Z.json'
        )
        expect(selectLatest({ names, logicalName: 'single-test', kind: 'snapshot' }).file).toBe(
            'single-test--2026-06-01T00-00-00Z--00000001.json'
        )
    })

    it('does not depend on the order of the listing (property)', () => {
        const stamp = fc
            .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
            .map((d) =>
                d
                    .toISOString()
                    .replace(/\.\d{3}Z$/, 'Z')
                    .replace(/:/g, '-')
            )
        const persona = fc.constantFrom('', '--ai-engineer--x', '--decision-maker--crypto')
        const names = fc.uniqueArray(
            fc.tuple(stamp, persona).map(([ts, p]) => `about-namespace${p}--${ts}.json`),
            { minLength: 1, maxLength: 20 }
        )
        fc.assert(
            fc.property(names, fc.infiniteStream(fc.nat()), (list, _) => {
                const shuffled = [...list].reverse()
                const a = selectLatest({ names: list, logicalName: 'about-namespace' })
                expect(selectLatest({ names: shuffled, logicalName: 'about-namespace' })).toEqual(a)
                const newestTs = list
                    .map((n) => n.slice(-25, -5))
                    .sort()
                    .at(-1)
                expect(a.timestamp).toBe(newestTs)
            })
        )
    })
})
