import { describe, expect, it } from 'vitest'
import { Areas } from '../../src/index.js'

describe('Areas.evaluateGates (area dependency graph)', () => {
    it('lets schema areas run from structural-valid and holds namespace areas below deterministic-green', () => {
        const result = Areas.evaluateGates({
            areas: [
                'single-test',
                'tools-aggregate-schema',
                'tools-aggregate-namespace',
                'namespace-description',
                'namespace-skills'
            ],
            signals: { namespaceLevel: 'structural-valid' }
        })
        expect(result.errors).toEqual([])
        expect(result.ready).toEqual(['single-test', 'tools-aggregate-schema'])
        expect(result.gated).toEqual([
            {
                area: 'tools-aggregate-namespace',
                reason: 'dependency all-namespace-schemas below requiredLevel deterministic-green (have structural-valid)'
            },
            {
                area: 'namespace-description',
                reason: 'dependency all-namespace-schemas below requiredLevel deterministic-green (have structural-valid)'
            },
            {
                area: 'namespace-skills',
                reason: 'dependency all-namespace-schemas below requiredLevel deterministic-green (have structural-valid)'
            }
        ])
    })

    it.each([
        [
            { aboutPresent: false, namespaceLevel: 'stable' },
            [],
            'dependency about-resource-present not satisfied (About resource absent)'
        ],
        [
            { aboutPresent: true, namespaceLevel: 'deterministic-green' },
            [],
            'dependency about-resource-present below requiredLevel stable (have deterministic-green)'
        ],
        [{ aboutPresent: true, namespaceLevel: 'stable' }, ['about-namespace'], null]
    ])('gates about-namespace on the About resource and on stable schemas (02 ⚠ B8): %j', (signals, ready, reason) => {
        const result = Areas.evaluateGates({ areas: ['about-namespace'], signals })
        expect(result.ready).toEqual(ready)
        expect(result.gated).toEqual(reason === null ? [] : [{ area: 'about-namespace', reason }])
    })

    it('runs selection areas only when every member is stable (02 §9.1 pre-condition)', () => {
        const areas = ['about-selection', 'selection-aggregate']
        expect(Areas.evaluateGates({ areas, signals: { memberLevel: 'stable' } }).ready).toEqual(areas)
        expect(
            Areas.evaluateGates({ areas, signals: { memberLevel: 'deterministic-green' } }).gated.map((g) => g.area)
        ).toEqual(areas)
    })

    it('evaluates all eleven areas when no list is given', () => {
        const result = Areas.evaluateGates({
            signals: { namespaceLevel: 'stable', aboutPresent: true, memberLevel: 'stable' }
        })
        expect(result.ready).toHaveLength(11)
    })

    it.each([
        [{ areas: ['single-test', 'about-namespace'], signals: {} }, 'ARE-017', '/signals/aboutPresent'],
        [{ areas: ['selection-aggregate'], signals: {} }, 'ARE-017', '/signals/memberLevel'],
        [{ areas: ['single-test'], signals: { namespaceLevel: 'green' } }, 'ARE-016', '/signals/namespaceLevel'],
        [{ areas: ['nope'], signals: {} }, 'ARE-001', '/areas/0'],
        [{ areas: 'single-test', signals: {} }, 'ARE-003', '/areas'],
        [{ areas: [], signals: { aboutPresent: 'yes' } }, 'ARE-003', '/signals/aboutPresent']
    ])('reports a missing or bad signal %j and decides nothing', (input, code, path) => {
        const result = Areas.evaluateGates(input)
        expect(result.ready).toEqual([])
        expect(result.gated).toEqual([])
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it('lists the level ladder lowest first', () => {
        expect(Areas.levels().levels).toEqual(['imported', 'structural-valid', 'deterministic-green', 'stable'])
    })
})
