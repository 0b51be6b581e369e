import { describe, expect, it } from 'vitest'
import { Island } from '../../src/index.js'
import { AREAS } from '../../src/catalogue.js'

const HOME = '/home/tester'

describe('Island.resolveRoot', () => {
    it.each([
        {
            name: 'the flag wins over everything',
            input: { flag: '/f', env: { FLOWMCP_GRADING_DATA: '/e' }, config: { gradingDataDir: '/c' } },
            root: '/f',
            source: 'flag'
        },
        {
            name: 'the environment wins over config and default',
            input: { env: { FLOWMCP_GRADING_DATA: '/e' }, config: { gradingDataDir: '/c' } },
            root: '/e',
            source: 'env'
        },
        {
            name: 'config gradingDataDir wins over the default',
            input: { config: { gradingDataDir: '/c' } },
            root: '/c',
            source: 'config'
        },
        { name: 'the default is ~/.flowmcp/grading', input: {}, root: `${HOME}/.flowmcp/grading`, source: 'default' },
        {
            name: 'empty strings count as not set',
            input: { flag: '', env: { FLOWMCP_GRADING_DATA: '' }, config: { gradingDataDir: '' } },
            root: `${HOME}/.flowmcp/grading`,
            source: 'default'
        },
        {
            name: 'a relative flag resolves against cwd',
            input: { flag: '../data/./island/', cwd: '/repo/sub' },
            root: '/repo/data/island',
            source: 'flag'
        },
        {
            name: 'a relative config value resolves against ~/.flowmcp/',
            input: { config: { gradingDataDir: 'grading-data' } },
            root: `${HOME}/.flowmcp/grading-data`,
            source: 'config'
        },
        {
            name: '~/ expands to home',
            input: { env: { FLOWMCP_GRADING_DATA: '~/island' } },
            root: `${HOME}/island`,
            source: 'env'
        }
    ])('resolves in the order flag → env → config → default (⚠ C1): $name', ({ input, root, source }) => {
        expect(Island.resolveRoot({ ...input, home: HOME })).toEqual({ root, source, errors: [] })
    })

    it.each([
        { input: { flag: 'rel' }, code: 'ISL-005' },
        { input: { flag: 3 }, code: 'ISL-002' },
        { input: { flag: '/a\u0000b' }, code: 'FS-003' },
        { input: { env: 'FLOWMCP_GRADING_DATA=/x' }, code: 'ISL-002' },
        { input: { home: undefined }, code: 'ISL-001' },
        { input: { home: 'relative/home' }, code: 'ISL-002' }
    ])('rejects unusable input with $code', ({ input, code }) => {
        expect(Island.resolveRoot({ home: HOME, ...input })).toMatchObject({
            root: null,
            source: null,
            errors: [{ code }]
        })
    })
})

describe('Island.gradingFolderFor', () => {
    const target = {
        namespace: 'defillama',
        schema: 'prices',
        tool: 'getFirstPrice',
        skill: 'summarizePrices',
        selection: 'defi-core'
    }
    const expected: Record<string, { fields: string[]; folder: string; index: string }> = {
        'single-test': {
            fields: ['namespace', 'schema', 'tool'],
            folder: 'providers/defillama/prices/tools/getFirstPrice/_gradings',
            index: 'providers/defillama'
        },
        'tools-aggregate-schema': {
            fields: ['namespace', 'schema'],
            folder: 'providers/defillama/prices/_gradings',
            index: 'providers/defillama'
        },
        'tools-aggregate-namespace': {
            fields: ['namespace'],
            folder: 'providers/defillama/_gradings',
            index: 'providers/defillama'
        },
        'namespace-description': {
            fields: ['namespace'],
            folder: 'providers/defillama/_gradings',
            index: 'providers/defillama'
        },
        'namespace-skills': {
            fields: ['namespace', 'schema', 'skill'],
            folder: 'providers/defillama/prices/skills/summarizePrices/_gradings',
            index: 'providers/defillama'
        },
        'about-namespace': {
            fields: ['namespace', 'schema'],
            folder: 'providers/defillama/prices/resources/about/_gradings',
            index: 'providers/defillama'
        },
        'about-selection': {
            fields: ['selection'],
            folder: 'selections/defi-core/resources/about/_gradings',
            index: 'selections/defi-core'
        },
        'selection-skills-L1': {
            fields: ['selection', 'skill'],
            folder: 'selections/defi-core/skills/summarizePrices/_gradings',
            index: 'selections/defi-core'
        },
        'selection-skills-L2': {
            fields: ['selection', 'skill'],
            folder: 'selections/defi-core/skills/summarizePrices/_gradings',
            index: 'selections/defi-core'
        },
        'selection-skills-L3': {
            fields: ['selection', 'skill'],
            folder: 'selections/defi-core/skills/summarizePrices/_gradings',
            index: 'selections/defi-core'
        },
        'selection-aggregate': {
            fields: ['selection'],
            folder: 'selections/defi-core/_gradings',
            index: 'selections/defi-core'
        }
    }

    it.each(
        AREAS.map((area) => ({ area, ...(expected[area] as { fields: string[]; folder: string; index: string }) }))
    )('places $area gradings in $folder (02-areas §1)', ({ area, fields, folder, index }) => {
        const t = Object.fromEntries(fields.map((f) => [f, target[f as keyof typeof target]]))
        const res = Island.gradingFolderFor({ area, target: t })
        expect(res.errors).toEqual([])
        expect(res.segments?.join('/')).toBe(folder)
        expect(res.indexSegments?.join('/')).toBe(index)
    })

    it.each([
        {
            name: 'a missing field',
            area: 'single-test',
            t: { namespace: 'defillama', schema: 'prices' },
            code: 'ISL-006'
        },
        {
            name: 'an extra field',
            area: 'tools-aggregate-namespace',
            t: { namespace: 'defillama', schema: 'prices' },
            code: 'ISL-006'
        },
        {
            name: 'an unknown field',
            area: 'selection-aggregate',
            t: { selection: 'defi-core', group: 'x' },
            code: 'ISL-006'
        },
        {
            name: 'a path escape',
            area: 'single-test',
            t: { namespace: 'defillama', schema: '..', tool: 'x' },
            code: 'ISL-003'
        },
        {
            name: 'a slash',
            area: 'single-test',
            t: { namespace: 'defillama', schema: 'a/b', tool: 'x' },
            code: 'ISL-003'
        },
        { name: 'an absolute path', area: 'namespace-description', t: { namespace: '/etc' }, code: 'ISL-003' },
        { name: 'a NUL byte', area: 'namespace-description', t: { namespace: 'def\u0000i' }, code: 'ISL-003' },
        { name: 'a control character', area: 'namespace-description', t: { namespace: 'def\ni' }, code: 'ISL-003' },
        {
            name: 'a -- separator',
            area: 'tools-aggregate-schema',
            t: { namespace: 'defillama', schema: 'pri--ces' },
            code: 'ISL-004'
        },
        { name: 'an unknown area', area: 'single', t: { namespace: 'defillama' }, code: 'GRD-033' }
    ])('rejects $name with $code before any port call', ({ area, t, code }) => {
        const res = Island.gradingFolderFor({ area, target: t })
        expect(res.segments).toBeNull()
        expect(res.errors.map((e) => e.code)).toContain(code)
    })
})
