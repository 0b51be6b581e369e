import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { getVersion } from '../src/index.js'
import { GRADING_SYSTEM_REGEX, SCORING_SYSTEM_REGEX } from '../src/catalogue.js'
import { sameMinorLine } from '../src/version.js'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }

describe('getVersion', () => {
    it('returns the three independent namespaces, the protocol and the package version', () => {
        expect(getVersion()).toEqual({
            gradingSpec: 'gradingSpec/2.0.1',
            scoringSystem: 'scoringSystem/1.0.0',
            gradingSystem: 'gradingSystem/1.0.0',
            scoringProtocol: 'v1',
            packageVersion: pkg.version
        })
    })

    it('returns a fresh object each call, so a caller cannot change the library constants', () => {
        const a = getVersion() as { gradingSystem: string }
        a.gradingSystem = 'gradingSystem/9.9.9'
        expect(getVersion().gradingSystem).toBe('gradingSystem/1.0.0')
    })
})

describe('version regexes', () => {
    it.each([
        ['scoringSystem/1.0.0', true],
        ['scoringSystem/10.20.30', true],
        ['scoringSystem/1.0', false],
        ['scoringsystem/1.0.0', false],
        ['scoringSystem/1.0.0 ', false],
        ['gradingSystem/1.0.0', false]
    ])('scoringSystem regex on %s → %s', (value, ok) => {
        expect(SCORING_SYSTEM_REGEX.test(value)).toBe(ok)
    })

    it.each([
        ['gradingSystem/1.0.0', true],
        ['gradingSystem/v1.0.0', false],
        ['gradingSystem/1.0.0-beta', false]
    ])('gradingSystem regex on %s → %s', (value, ok) => {
        expect(GRADING_SYSTEM_REGEX.test(value)).toBe(ok)
    })

    it('treats 2.0.0 and 2.0.1 as one line (A1) but not 2.1.0', () => {
        expect(sameMinorLine('gradingSpec/2.0.0', 'gradingSpec/2.0.1')).toBe(true)
        expect(sameMinorLine('gradingSpec/2.0.0', 'gradingSpec/2.1.0')).toBe(false)
        expect(sameMinorLine('nonsense', 'nonsense')).toBe(false)
    })
})
