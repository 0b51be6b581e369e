import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { run } from '../../src/cli/run.js'
import { memoryIo } from '../cli/helpers.js'
import { shared } from '../support/shared.js'

// Two real schemas of the sample that write their key into the tool's path (`…&apikey={{KEY}}`):
// recorded once with a made-up key against a fake API (no network), then graded from the recordings
// by the CLI with no key in the environment, as CI and fork pull requests do.
const now = '2026-12-01T10:00:00Z'
const etherscan = shared('corpus-sample/schemas/etherscan/account.mjs')
const geoapify = shared('corpus-sample/schemas/geoapify/geocoding.mjs')
const KEYS = { ETHERSCAN_API_KEY: 'made-up-etherscan-key-0001', GEOAPIFY_API_KEY: 'made-up-geoapify-key-0002' }

interface UnitView {
    readonly unit: string
    readonly status: string
    readonly reason: string | null
}
const unitsOf = (out: string): Map<string, UnitView[]> =>
    new Map(
        (JSON.parse(out) as { schemas: Array<{ grading: { schemaId: string; units: UnitView[] } }> }).schemas.map(
            (s) => [s.grading.schemaId, s.grading.units.filter((u) => u.unit.startsWith('single-test/'))]
        )
    )

describe.skipIf(!etherscan.present || !geoapify.present)('a replay of a key written in the path needs no key', () => {
    let work = ''
    beforeAll(() => {
        work = realpathSync(mkdtempSync(join(tmpdir(), 'keyless-replay-')))
        for (const [ns, part] of [
            ['etherscan', etherscan],
            ['geoapify', geoapify]
        ] as const) {
            mkdirSync(join(work, 'providers', ns), { recursive: true })
            cpSync(part.path, join(work, 'providers', ns, part.path.split('/').at(-1) as string))
        }
    })
    afterAll(() => rmSync(work, { recursive: true, force: true }))
    afterEach(() => vi.unstubAllGlobals())

    it('etherscan.account and geoapify.geocoding: recorded with a key, replayed without one, the same units as the live run (no missing server param)', async () => {
        // The "live" API: answers data to any request that carries the key, the key never echoed.
        vi.stubGlobal('fetch', async (url: string) => {
            const keyed = Object.values(KEYS).some((k) => url.includes(k))
            return {
                status: keyed ? 200 : 401,
                headers: new Headers({ 'content-type': 'application/json' }),
                text: async () =>
                    keyed
                        ? '{"status":"1","message":"OK","result":[{"id":1}],"type":"FeatureCollection","features":[{"type":"Feature"}]}'
                        : '{"error":"no key"}'
            }
        })
        const paths = [join(work, 'providers', 'etherscan'), join(work, 'providers', 'geoapify')]
        const rec = join(work, 'rec')
        const liveIo = memoryIo({}, { env: KEYS, cwd: work })
        await run(['grade', ...paths, '--live', '--record', rec, '--json', '--now', now], liveIo)
        vi.unstubAllGlobals()
        for (const f of readdirSync(rec))
            for (const key of Object.values(KEYS)) expect(readFileSync(join(rec, f), 'utf8')).not.toContain(key)
        const live = unitsOf(liveIo.out())
        // etherscan.account is graded live; geoapify's tools have fewer than 3 tests: blocked for that, anywhere.
        expect(live.get('etherscan.account')?.filter((u) => u.status === 'blocked')).toEqual([])

        const replayIo = memoryIo({}, { env: {}, cwd: work })
        await run(['grade', ...paths, '--recordings', rec, '--json', '--now', now], replayIo)
        const replayed = unitsOf(replayIo.out())
        expect([...replayed.keys()].sort()).toEqual(['etherscan.account', 'geoapify.geocoding'])
        // The keyless replay is the live run: no tool unbuildable (the old `missing server param`) or key-gated.
        expect(replayed).toEqual(live)
        for (const units of replayed.values())
            expect(units.filter((u) => /unbuildable|key-gated|missing server param/.test(u.reason ?? ''))).toEqual([])
    })
})
