import { generateKeyPairSync } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { computeAggregate } from '../../src/grading/aggregate.js'
import {
    Grading,
    gradeSingleSchema,
    httpPortFromRecordings,
    validateGradingEntry,
    type GradingEntry,
    type Issue
} from '../../src/index.js'
import { exampleMain, grader, recording, scriptedJudge } from '../grade/helpers.js'

const NOW = '2026-11-22T18:00:00Z'
const errorCodes = (issues: readonly Issue[]): string[] =>
    [...new Set(issues.filter((i) => i.severity === 'error').map((i) => i.code))].sort()

/** The entries the library writes for the openmeteo example, graded with recorded HTTP and a scripted judge. */
let entries: GradingEntry[] = []
let source = ''
let vetoed: GradingEntry[] = []
let oddsSource = ''

beforeAll(async () => {
    const forecast = await exampleMain('providers/openmeteo/forecast.mjs')
    source = forecast.source
    const graded = await gradeSingleSchema({
        schema: { main: forecast.main },
        schemaId: 'openmeteo.forecast',
        grader,
        options: {
            now: NOW,
            source,
            judge: scriptedJudge(4).judge,
            http: httpPortFromRecordings({ recordings: [recording('openmeteo')] })
        }
    })
    entries = graded.entries as GradingEntry[]
    const odds = await exampleMain('providers/sportsodds/odds.mjs')
    oddsSource = odds.source
    const rejected = await gradeSingleSchema({
        schema: { main: odds.main },
        schemaId: 'sportsodds.odds',
        grader,
        options: { now: NOW, source: oddsSource, judge: scriptedJudge(4).judge }
    })
    vetoed = rejected.entries as GradingEntry[]
}, 60_000)

const byArea = (area: string, list = entries): GradingEntry => list.find((e) => e.area === area) as GradingEntry
/** A single-test entry's tool: the unit names it; the entries keep the tools in the schema's order. */
const TOOLS = ['getHourlyForecast', 'getCurrentWeather']
const expectFor = (e: GradingEntry, tool?: string) => ({
    schemaId: e.schemaId,
    source,
    area: e.area,
    ...(tool !== undefined ? { tool } : {})
})
/** The entry with one answer changed and its grade recomputed, as a forger who knows the rules would. */
function forge(e: GradingEntry, index: number, change: Record<string, unknown>): GradingEntry {
    const gradings = e.gradings.map((g, i) => (i === index ? { ...g, ...change } : g))
    const next = { ...e, gradings } as GradingEntry
    const grade = computeAggregate(next, {}, false).aggregateGrade
    return { ...next, aggregateGrade: grade ?? next.aggregateGrade } as GradingEntry
}
const indexOf = (e: GradingEntry, id: string): number => e.gradings.findIndex((g) => g.questionId === id)

describe('re-check against expect.source (issue 45)', () => {
    it('accepts every entry the library writes, strict, with the hash computed from the source', () => {
        expect(entries.length).toBeGreaterThan(3)
        const single = entries.filter((e) => e.area === 'single-test')
        for (const e of entries) {
            const tool = e.area === 'single-test' ? TOOLS[single.indexOf(e)] : undefined
            const r = validateGradingEntry({ entry: e, now: NOW, strict: true, expect: expectFor(e, tool) })
            expect(r.errors).toEqual([])
            expect(r.valid && r.provenance.schemaHash).toBe(e.schemaHash)
        }
    })

    it('reports what it recomputed, what needs HTTP evidence (unverifiable), and the judge answers (self-declared)', () => {
        const e = byArea('single-test')
        const r = validateGradingEntry({ entry: e, now: NOW, strict: true, expect: expectFor(e, TOOLS[0]) })
        if (!r.valid) throw new Error(JSON.stringify(r.errors))
        const standing = Object.fromEntries(r.provenance.answers.map((a) => [a.questionId, a.standing]))
        expect(standing['Q-single-test-03']).toBe('recomputed')
        expect(standing['Q-api-availability']).toBe('unverifiable')
        expect(r.provenance.answers.find((a) => a.questionId === 'Q-api-availability')?.reason).toContain('HTTP')
        expect(standing['Q-single-test-04']).toBe('self-declared')
        const schema = byArea('tools-aggregate-schema')
        const s = validateGradingEntry({ entry: schema, expect: expectFor(schema) })
        if (!s.valid) throw new Error(JSON.stringify(s.errors))
        const recomputed = s.provenance.answers.filter((a) => a.standing === 'recomputed').map((a) => a.questionId)
        expect(recomputed.sort()).toEqual(['Q-schema-structure', 'Q-security', 'Q-tools-aggregate-schema-01'])
    })

    it('rejects a fabricated deterministic answer, whoever the entry says recorded it (RCK-001)', () => {
        const e = byArea('tools-aggregate-schema')
        const i = indexOf(e, 'Q-security')
        const raised = forge(e, i, { score: 'fail' })
        expect(validateGradingEntry({ entry: raised, now: NOW, strict: true }).valid).toBe(true)
        expect(errorCodes(validateGradingEntry({ entry: raised, expect: expectFor(e) }).errors)).toEqual(['RCK-001'])
        const human = forge(e, indexOf(e, 'Q-tools-aggregate-schema-01'), {
            score: 'fail',
            determinism: 'non-deterministic',
            graderIdentity: { kind: 'human', name: 'reviewer', version: '1' },
            selectionContext: { groupId: 'g', personaIds: ['decision-maker'] },
            reasoning: 'looked at it'
        })
        const r = validateGradingEntry({ entry: human, expect: expectFor(e) })
        expect(errorCodes(r.errors)).toContain('RCK-001')
        expect(r.errors.find((x) => x.code === 'RCK-001')?.message).toContain('(human)')
    })

    it('rejects a low answer turned into n/a when the source decides it (RCK-001)', () => {
        const e = byArea('tools-aggregate-schema')
        const na = forge(e, indexOf(e, 'Q-schema-structure'), { score: 'n/a', naReason: 'requires-private-data' })
        expect(errorCodes(validateGradingEntry({ entry: na, expect: expectFor(e) }).errors)).toContain('RCK-001')
    })

    it('rejects a forged api-key-domain-mismatch veto against a clean schema (RCK-002)', () => {
        const e = byArea('tools-aggregate-schema')
        const veto = {
            triggeredBy: 'api-key-domain-mismatch',
            graderIdentity: e.gradings[0]?.graderIdentity,
            evidence: 'forged',
            timestamp: e.gradings[0]?.timestamp
        }
        const forged = { ...e, categoricalVeto: veto, aggregateGrade: 'REJECTED' } as GradingEntry
        expect(validateGradingEntry({ entry: forged }).valid).toBe(true)
        expect(errorCodes(validateGradingEntry({ entry: forged, expect: expectFor(e) }).errors)).toEqual(['RCK-002'])
    })

    it('accepts the veto the source supports, and rejects an entry that hides it (RCK-003)', () => {
        const schema = byArea('tools-aggregate-schema', vetoed)
        expect(schema.categoricalVeto?.triggeredBy).toBe('api-key-domain-mismatch')
        const stated = { schemaId: schema.schemaId, source: oddsSource }
        expect(
            validateGradingEntry({ entry: schema, expect: stated }).errors.filter((i) => i.severity === 'error')
        ).toEqual([])
        const hidden = { ...schema, categoricalVeto: null, aggregateGrade: 'C' } as unknown as GradingEntry
        expect(errorCodes(validateGradingEntry({ entry: hidden, expect: stated }).errors)).toContain('RCK-003')
    })

    it('binds the hash to the source: an entry of one schema filed under another is BND-002 (and BND-012)', () => {
        const e = byArea('tools-aggregate-schema')
        const r = validateGradingEntry({ entry: e, expect: { source: oddsSource } })
        expect(errorCodes(r.errors)).toEqual(expect.arrayContaining(['BND-002', 'BND-012']))
        const stated = validateGradingEntry({ entry: e, expect: { source, schemaHash: '00000000' } })
        expect(errorCodes(stated.errors)).toContain('BND-009')
    })

    it('expect.tool must be a tool of the source (BND-005); a source that is no module is BND-010', () => {
        const e = byArea('single-test')
        expect(errorCodes(validateGradingEntry({ entry: e, expect: { source, tool: 'getNothing' } }).errors)).toContain(
            'BND-005'
        )
        for (const bad of ['not javascript (', 'export const other = 1']) {
            const r = validateGradingEntry({ entry: e, expect: { source: bad } })
            expect(errorCodes(r.errors)).toEqual(['BND-010'])
        }
    })

    it('reports the deterministic answers of an entry without a source as unverifiable, never as checked', () => {
        const e = byArea('tools-aggregate-schema')
        const r = validateGradingEntry({ entry: e })
        if (!r.valid) throw new Error('invalid')
        expect(r.provenance.schemaHash).toBe(null)
        expect(r.provenance.answers.every((a) => a.standing === 'unverifiable' || a.standing === 'self-declared')).toBe(
            true
        )
    })
})

describe("issue 45's forgery classes, given expect + source (+ a signature where the grader's word is all there is)", () => {
    const signer = (): { privateKey: unknown; publicKey: unknown } => {
        const pair = generateKeyPairSync('ed25519')
        return {
            privateKey: { ...pair.privateKey.export({ format: 'jwk' }), kid: 'judge' },
            publicKey: { ...pair.publicKey.export({ format: 'jwk' }), kid: 'judge' }
        }
    }

    it('LLM scores rewritten to 5 or turned into n/a: self-declared unsigned, ATT-002 against the signed original', () => {
        const e = byArea('tools-aggregate-schema')
        const key = signer()
        const envelope = Grading.sign({ entry: e, privateKey: key.privateKey }).envelope
        const llm = e.gradings.findIndex((g) => g.graderIdentity.kind === 'llm')
        for (const change of [{ score: 5 }, { score: 'n/a', naReason: 'requires-private-data' }]) {
            const forged = forge(e, llm, change)
            const unsigned = validateGradingEntry({ entry: forged, expect: expectFor(e) })
            if (!unsigned.valid) throw new Error(JSON.stringify(unsigned.errors))
            expect(unsigned.provenance.answers[llm]?.standing).toBe('self-declared')
            const signed = validateGradingEntry({
                entry: forged,
                expect: expectFor(e),
                envelope,
                trustedKeys: [key.publicKey]
            })
            expect(errorCodes(signed.errors)).toEqual(['ATT-002'])
        }
    })

    it('a fake grader name is self-declared unsigned, and ATT-004 under a key bound to its graders', () => {
        const e = byArea('tools-aggregate-schema')
        const llm = e.gradings.findIndex((g) => g.graderIdentity.kind === 'llm')
        const real = e.gradings[llm]?.graderIdentity.name as string
        const fake = {
            ...e,
            gradings: e.gradings.map((g) =>
                g.graderIdentity.kind === 'llm'
                    ? { ...g, graderIdentity: { ...g.graderIdentity, name: 'openai/gpt-5-official' } }
                    : g
            )
        } as GradingEntry
        const unsigned = validateGradingEntry({ entry: fake, expect: expectFor(e) })
        expect(unsigned.valid && unsigned.provenance.answers[llm]?.standing).toBe('self-declared')
        const key = signer()
        const envelope = Grading.sign({ entry: fake, privateKey: key.privateKey }).envelope
        const trusted = [{ ...(key.publicKey as object), graders: [real] }]
        expect(errorCodes(validateGradingEntry({ entry: fake, envelope, trustedKeys: trusted }).errors)).toEqual([
            'ATT-004'
        ])
    })
})
