import {
    copyFileSync,
    cpSync,
    existsSync,
    mkdirSync,
    mkdtempSync,
    readFileSync,
    realpathSync,
    rmSync,
    writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runtimePortFromChildProcess, type ChildRuntimePort } from '../../src/cli/runtime/process.js'
import { permissionFlag } from '../../src/cli/runtime/sandbox.js'
import { runtimePortFromFlowMCP, type RuntimeTestOutcome } from '../../src/index.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import {
    buildChildScript,
    PROJECT_MODULES,
    prepareRuntime,
    runtimePresent,
    SAMPLE,
    samplePresent,
    type PreparedRuntime
} from './harness.js'

// unified/* declare talib, a native library: its binding is a Node addon, which the permission model
// refuses unless --allow-addons. talib itself is not installed here (it needs the TA-Lib C library),
// so a stand-in of our own takes its place: a real native addon (a prebuilt binding the project
// already has, rollup's), loaded as talib loads its own, and an `execute` that computes a simple
// moving average in JavaScript.
const ADDON = join(PROJECT_MODULES, '@rollup', 'rollup-linux-x64-gnu', 'rollup.linux-x64-gnu.node')
const FILE = 'unified/unified-trend-basic.mjs'

const STAND_IN = `'use strict'
// A stand-in for talib: its native binding loaded as talib's is, its execute() computing SMA in JavaScript.
const binding = require('./binding.node')
module.exports = {
    loadedNative: typeof binding === 'object',
    execute(config, callback) {
        const period = config.optInTimePeriod
        const out = []
        for (let i = period - 1; i < config.inReal.length; i += 1) out.push(config.inReal.slice(i - period + 1, i + 1).reduce((a, b) => a + b, 0) / period)
        callback(null, { begIndex: period - 1, nbElement: out.length, result: { outReal: out } })
    }
}
`

describe.skipIf(
    !runtimePresent ||
        !samplePresent ||
        permissionFlag(process.version) === null ||
        !existsSync(ADDON) ||
        process.platform !== 'linux'
)('a schema whose declared library is native (unified/* with talib), in the runtime child', () => {
    let runtime: PreparedRuntime
    let work: string
    let childScript: string
    let schemaPath: string
    let main: Record<string, any>
    const ports: ChildRuntimePort[] = []
    const tests = (): Array<{ tool: string; testIndex: number; userParams: Record<string, unknown> }> =>
        Object.entries<any>(main.tools).flatMap(([tool, def]) =>
            (def.tests as Array<Record<string, unknown>>).map(({ _description: _, ...userParams }, testIndex) => ({
                tool,
                testIndex,
                userParams
            }))
        )
    const runAll = async (
        run: (t: {
            tool: string
            testIndex: number
            userParams: Record<string, unknown>
        }) => Promise<RuntimeTestOutcome>
    ): Promise<Array<[string, boolean, string]>> => {
        const out: Array<[string, boolean, string]> = []
        for (const t of tests()) {
            const outcome = await run(t)
            out.push([`${t.tool}#${t.testIndex}`, outcome.ok, (outcome.messages ?? []).join('; ')])
        }
        return out
    }

    beforeAll(async () => {
        runtime = await prepareRuntime()
        const talib = join(runtime.base, 'node_modules', 'talib')
        mkdirSync(talib)
        writeFileSync(
            join(talib, 'package.json'),
            JSON.stringify({ name: 'talib', version: '0.0.0-stand-in', main: 'index.js' })
        )
        writeFileSync(join(talib, 'index.js'), STAND_IN)
        copyFileSync(ADDON, join(talib, 'binding.node'))
        work = realpathSync(mkdtempSync(join(tmpdir(), 'native-library-')))
        mkdirSync(join(work, 'child'))
        childScript = await buildChildScript(join(work, 'child'))
        schemaPath = join(work, 'schemas', FILE)
        mkdirSync(join(schemaPath, '..'), { recursive: true })
        cpSync(join(SAMPLE, 'schemas', FILE), schemaPath)
        main = readModuleSource({ source: readFileSync(schemaPath, 'utf8') }).module?.main as Record<string, any>
    }, 60_000)

    afterAll(async () => {
        await Promise.all(ports.map((p) => p.close()))
        runtime?.cleanup()
        if (work !== undefined) rmSync(work, { recursive: true, force: true })
    })

    const child = (nodeHasFlag?: (flag: string) => boolean): ChildRuntimePort => {
        const { port, errors } = runtimePortFromChildProcess({
            runtime: runtime.folder,
            libraries: runtime.base,
            network: { mode: 'offline' },
            childScript,
            ...(nodeHasFlag !== undefined ? { nodeHasFlag } : {})
        })
        expect(errors).toEqual([])
        ports.push(port as ChildRuntimePort)
        return port as ChildRuntimePort
    }

    it('loads the schema and answers its tests in the child exactly as the runtime does in-process (the child may load the addon)', async () => {
        const inProcess = runtimePortFromFlowMCP({ core: runtime.core, resolveBase: runtime.base })
        const expected = await runAll((t) =>
            inProcess.run({ schemaPath, main, ...t, serverParams: {}, timeoutMs: 10_000 })
        )
        const port = child()
        const got = await runAll((t) => port.run({ schemaPath, main, ...t, serverParams: {}, timeoutMs: 10_000 }))
        expect(got.map(([id, ok]) => [id, ok])).toEqual(expected.map(([id, ok]) => [id, ok]))
        // Every test computes, talib's through the native stand-in too.
        expect(got.filter(([, ok]) => !ok)).toEqual([])
        expect(got.length).toBeGreaterThan(10)
    })

    it('without --allow-addons (a Node that lacks the flag) the schema does not load: the runtime names the refused addon', async () => {
        const port = child((flag) => flag !== '--allow-addons' && process.allowedNodeEnvironmentFlags.has(flag))
        const outcome = await port.run({ schemaPath, main, ...tests()[0]!, serverParams: {}, timeoutMs: 10_000 })
        expect(outcome.ok).toBe(false)
        expect(outcome.messages?.join(' ')).toMatch(
            /talib.*Cannot load native addon because loading addons is disabled/
        )
    })
})
