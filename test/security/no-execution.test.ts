import { existsSync } from 'node:fs'
import * as nodeFs from 'node:fs/promises'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { importSchemaLoader } from '../../src/grade/loader.js'
import { gradeSingleSchema } from '../../src/grade/single-schema.js'
import { Island } from '../../src/island/island.js'
import { SourceSnapshot } from '../../src/island/snapshot.js'
import { fsPortFromNodeLike } from '../../src/ports/node-fs.js'
import { memoryIo } from '../cli/helpers.js'

// Every hostile source writes a marker file when its code runs. Grading, importing, verifying and
// the CLI must never run it, whatever spelling the code uses.
const MAIN =
    "{ namespace: 'demo', name: 'Demo', description: 'A demo.', version: '4.2.0', root: 'https://api.demo.dev', tools: {} }"
const now = '2026-11-22T10:00:00Z'
const fs = fsPortFromNodeLike(nodeFs)

/** Hostile module bodies by bypass class; `MARKER_PATH` is replaced by the marker path. */
const HOSTILE: ReadonlyArray<readonly [string, string]> = [
    [
        'static import of node:fs',
        `import { writeFileSync } from 'node:fs'\nwriteFileSync(MARKER_PATH, 'x')\nexport const main = ${MAIN}`
    ],
    [
        'dynamic import of node:fs',
        `import('node:fs').then((f) => f.writeFileSync(MARKER_PATH, 'x'))\nexport const main = ${MAIN}`
    ],
    [
        'top-level await import',
        `const f = await import('node:fs')\nf.writeFileSync(MARKER_PATH, 'x')\nexport const main = ${MAIN}`
    ],
    [
        'require via createRequire',
        `import { createRequire } from 'node:module'\ncreateRequire(import.meta.url)('fs').writeFileSync(MARKER_PATH, 'x')\nexport const main = ${MAIN}`
    ],
    [
        'process.getBuiltinModule',
        `process.getBuiltinModule('node:fs').writeFileSync(MARKER_PATH, 'x')\nexport const main = ${MAIN}`
    ],
    [
        'process.env read',
        `if (process.env.PATH) process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x')\nexport const main = ${MAIN}`
    ],
    [
        'a getter on main',
        `export const main = { get namespace() { process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x'); return 'demo' }, name: 'Demo', description: 'A demo.', version: '4.2.0', root: 'https://api.demo.dev', tools: {} }`
    ],
    [
        "globalThis['ev'+'al']",
        `globalThis['ev' + 'al']("process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x')")\nexport const main = ${MAIN}`
    ],
    [
        "'child_'+'process'",
        `import('node:child_' + 'process').then((cp) => cp.execFileSync('touch', [MARKER_PATH]))\nexport const main = ${MAIN}`
    ],
    [
        'unicode-escaped eval',
        `\\u0065val("process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x')")\nexport const main = ${MAIN}`
    ],
    [
        'unicode-escaped module name',
        `import('node:child\\u005fprocess').then((cp) => cp.execFileSync('touch', [MARKER_PATH]))\nexport const main = ${MAIN}`
    ],
    [
        'Reflect.construct(Function)',
        `Reflect.construct(Function, ["process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x')"])()\nexport const main = ${MAIN}`
    ],
    [
        'new (Function)',
        `new (Function)("process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x')")()\nexport const main = ${MAIN}`
    ],
    [
        "[]['constr'+'uctor']",
        `[]['constr' + 'uctor']['constr' + 'uctor']("process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x')")()\nexport const main = ${MAIN}`
    ],
    [
        'eval after a regex read as division',
        `if (true) /'/.test('x'); eval("process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x')")\nexport const main = ${MAIN}`
    ],
    [
        'an IIFE building main',
        `export const main = (() => { process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x'); return ${MAIN} })()`
    ],
    [
        'a call inside a template expression',
        `export const main = { ...${MAIN}, description: \`A \${process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x')}\` }`
    ],
    [
        'a computed key',
        `export const main = { ...${MAIN}, [process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x')]: 1 }`
    ],
    [
        'a spread of a call',
        `export const main = { ...${MAIN}, ...(process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x') ?? {}) }`
    ],
    [
        'a toJSON method on main',
        `export const main = { ...${MAIN}, toJSON() { process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x'); return {} } }`
    ],
    [
        'a tagged template',
        `const t = (s) => process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x')\nexport const main = { ...${MAIN}, description: t\`x\` }`
    ],
    ['a side-effect import of a sibling module', `import './side.mjs'\nexport const main = ${MAIN}`],
    ['a re-export from a sibling module', `export { main } from './side.mjs'`],
    [
        'handlers with code',
        `export const main = ${MAIN}\nexport const handlers = () => { process.getBuiltinModule('fs').writeFileSync(MARKER_PATH, 'x'); return {} }`
    ]
]

let base = ''
beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'flowmcp-hostile-'))
})
afterAll(async () => {
    await rm(base, { recursive: true, force: true })
})

let counter = 0
/** Writes one hostile provider folder; returns its schema path and marker path. */
async function hostile(body: string): Promise<{ dir: string; file: string; marker: string }> {
    counter += 1
    const dir = join(base, `case${counter}`, 'demo')
    await mkdir(dir, { recursive: true })
    const marker = join(base, `case${counter}`, 'MARKER')
    const code = body.replaceAll('MARKER_PATH', `'${marker}'`)
    await writeFile(join(dir, 'demo.mjs'), code)
    await writeFile(
        join(dir, 'side.mjs'),
        `process.getBuiltinModule('fs').writeFileSync(${JSON.stringify(marker)}, 'x')\nexport const main = ${MAIN}\n`
    )
    return { dir, file: join(dir, 'demo.mjs'), marker }
}

/** Lets any promise the code started settle before the marker is checked. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20))

describe('no hostile source executes', () => {
    it.each(HOSTILE)('gradeSingleSchema never runs %s', async (_name, body) => {
        const { file, marker } = await hostile(body)
        await gradeSingleSchema({
            schemaPath: file,
            options: { now, sourceFs: fs, fs, root: join(base, `island${counter}`) }
        })
        await settle()
        expect(existsSync(marker)).toBe(false)
    })

    it.each(HOSTILE)('Island.importProvider never runs %s', async (_name, body) => {
        const { dir, marker } = await hostile(body)
        await Island.importProvider({ fs, root: join(base, `island${counter}`), sourceDir: dir, now })
        await settle()
        expect(existsSync(marker)).toBe(false)
    })

    it.each(HOSTILE)('SourceSnapshot.verify never runs %s', async (_name, body) => {
        const { dir, marker } = await hostile(body)
        const snapshot = join(dir, 'demo--2026-11-22T10-00-00Z--00000000.mjs')
        await writeFile(snapshot, body.replaceAll('MARKER_PATH', `'${marker}'`))
        await SourceSnapshot.verify({ fs, path: snapshot })
        await settle()
        expect(existsSync(marker)).toBe(false)
    })

    it.each(HOSTILE)('the CLI (grade, emit-prompts) never runs %s', async (_name, body) => {
        const { file, marker } = await hostile(body)
        await run(['grade', '--json', '--now', now, file], memoryIo())
        await run(['emit-prompts', file], memoryIo())
        await settle()
        expect(existsSync(marker)).toBe(false)
    })

    // The fixtures are live: importing each one (what the default loader did before) runs it.
    it.each(HOSTILE.filter(([name]) => name !== 'handlers with code' && name !== 'a toJSON method on main'))(
        'an explicit trustedLoader (the host trusting the source) does run %s',
        async (_name, body) => {
            const { file, marker } = await hostile(body)
            await gradeSingleSchema({
                schemaPath: file,
                options: { now, sourceFs: fs, trustedLoader: importSchemaLoader }
            })
            await settle()
            expect(existsSync(marker)).toBe(true)
        }
    )

    it('the CLI imports (runs) a module only with --trusted-import', async () => {
        const { file, marker } = await hostile(HOSTILE[4]?.[1] as string)
        await run(['grade', '--json', '--now', now, file], memoryIo())
        expect(existsSync(marker)).toBe(false)
        await run(['grade', '--trusted-import', '--json', '--now', now, file], memoryIo())
        expect(existsSync(marker)).toBe(true)
    })

    it('still grades the plain main of a hostile source and says its top-level code was not run (SRC-006)', async () => {
        const { file } = await hostile(HOSTILE[0]?.[1] as string)
        const result = await gradeSingleSchema({ schemaPath: file, options: { now, sourceFs: fs } })
        expect(result.grading?.schemaId).toBe('demo.demo')
        expect(result.errors.map((e) => e.code)).toContain('SRC-006')
    })
})
