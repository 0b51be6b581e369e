import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readModuleSource } from '../../src/index.js'
import { buildRequest } from '../../src/pretest/request.js'
import { testsOf } from '../../src/schema/shape.js'

/** The body every synthetic exchange answers with: data, so each test counts as working. */
const DATA = JSON.stringify({ data: [{ id: 1, name: 'sample', value: 42 }], status: 'ok' })

/**
 * Recordings in the format `--recordings <dir>` replays, one exchange per test of every tool of the
 * schema sources given, each answered 200 with data: a schema's tests "ran" without a network. Key
 * values are written as `{{SERVER_PARAM:NAME}}` placeholders, which match any value on replay.
 */
export function syntheticRecordings(
    sources: readonly string[],
    serverParams: Readonly<Record<string, string>> = {}
): Array<{ host: string; exchanges: unknown[] }> {
    const byHost = new Map<string, unknown[]>()
    for (const source of sources) {
        const main = (readModuleSource({ source }).module as { main?: Record<string, unknown> } | null)?.main
        if (main === undefined || main === null || typeof main.tools !== 'object' || main.tools === null) continue
        // The docs URLs answer too, as a reachable page does.
        for (const doc of Array.isArray(main.docs) ? main.docs : []) {
            if (typeof doc !== 'string' || !/^https?:\/\//.test(doc)) continue
            const url = new URL(doc)
            const list = byHost.get(url.origin) ?? []
            for (const method of ['HEAD', 'GET'])
                list.push({
                    request: { method, path: url.pathname, query: Object.fromEntries(url.searchParams.entries()) },
                    response: { status: 200, body: '' }
                })
            byHost.set(url.origin, list)
        }
        const params = Object.fromEntries(
            ((main.requiredServerParams as string[] | undefined) ?? []).map((k) => [
                k,
                serverParams[k] ?? `{{SERVER_PARAM:${k}}}`
            ])
        )
        for (const tool of Object.values(main.tools as Record<string, unknown>)) {
            for (const test of testsOf(tool)) {
                const built = buildRequest(main, tool, test, params, 15_000)
                if (built.request === null) continue
                const url = new URL(built.request.url)
                const query = Object.fromEntries(url.searchParams.entries())
                const list = byHost.get(url.origin) ?? []
                list.push({
                    request: { method: built.request.method, path: url.pathname, query },
                    response: { status: 200, body: DATA }
                })
                byHost.set(url.origin, list)
            }
        }
    }
    return [...byHost.entries()].map(([host, exchanges]) => ({ host, recordedAt: '2026-11-25T10:00:00Z', exchanges }))
}

/** Writes {@link syntheticRecordings} of the given schema files into `dir`, one file per host. */
export async function writeSyntheticRecordings(
    files: readonly string[],
    dir: string,
    serverParams: Readonly<Record<string, string>> = {}
): Promise<void> {
    await mkdir(dir, { recursive: true })
    const sources = await Promise.all(files.map((f) => readFile(f, 'utf8')))
    const recordings = syntheticRecordings(sources, serverParams)
    await Promise.all(recordings.map((r, i) => writeFile(join(dir, `synthetic-${i}.json`), JSON.stringify(r, null, 2))))
}
