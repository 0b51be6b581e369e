import * as fsp from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { aboutFileIn, declaredAboutFile } from '../grade/about.js'
import { readModuleSource } from '../schema/source-loader.js'
import {
    fsPortFromNodeLike,
    httpPortFromFetch,
    httpPortFromRecordings,
    type FsPort,
    type HttpPort,
    type Recording
} from '../index.js'

/** The real file system as an FsPort. */
export function nodeFs(): FsPort {
    return fsPortFromNodeLike(fsp)
}

export function absolute(path: string, cwd: string): string {
    return isAbsolute(path) ? path : resolve(cwd, path)
}

/** Every `*.mjs` schema file at or below `path` (a file, a provider folder, or a folder of providers). */
export async function schemaFiles(path: string): Promise<string[]> {
    const stat = await fsp.stat(path)
    if (stat.isFile()) return [path]
    const out: string[] = []
    const walk = async (dir: string, depth: number): Promise<void> => {
        const entries = (await fsp.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))
        for (const e of entries) {
            if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === 'resources' || e.name === 'skills')
                continue
            const full = join(dir, e.name)
            if (e.isFile() && e.name.endsWith('.mjs') && !e.name.startsWith('_')) out.push(full)
            else if (e.isDirectory() && depth < 2) await walk(full, depth + 1)
        }
    }
    await walk(path, 0)
    return out
}

/**
 * The About beside schemas of one folder: `resources/<name>` as a schema among them declares it in
 * `main.resources.about` (read from the syntax tree; the FlowMCP runtime reads an inline markdown
 * resource there), the first declared file present; else — none declares one — the first
 * `resources/*-about.md`, so that grading can say it is not declared (GRA-022). Read as text, or undefined.
 */
export async function aboutBeside(
    schemaPaths: string | readonly string[]
): Promise<{ name: string; text: string } | undefined> {
    const paths = typeof schemaPaths === 'string' ? [schemaPaths] : schemaPaths
    if (paths[0] === undefined) return undefined
    const dir = join(dirname(paths[0]), 'resources')
    const declared: string[] = []
    for (const path of paths) {
        try {
            const mod = readModuleSource({ source: await fsp.readFile(path, 'utf8') }).module
            const name = declaredAboutFile(mod?.main ?? mod?.schema)
            if (name !== null) declared.push(name)
        } catch {
            // An unreadable schema declares nothing here; grading reports it.
        }
    }
    try {
        const entries = await fsp.readdir(dir, { withFileTypes: true })
        const name = aboutFileIn(
            entries.filter((e) => e.isFile()).map((e) => e.name),
            declared
        )
        return name === undefined ? undefined : { name, text: await fsp.readFile(join(dir, name), 'utf8') }
    } catch {
        return undefined
    }
}

/** An HTTP port: live (fetch), replayed from recordings, or none. */
export async function httpPort(mode: { live: boolean; recordings?: string }): Promise<HttpPort | undefined> {
    if (mode.recordings !== undefined) {
        const names = (await fsp.readdir(mode.recordings)).filter((n) => n.endsWith('.json')).sort()
        const recordings = await Promise.all(
            names.map(
                async (n) => JSON.parse(await fsp.readFile(join(mode.recordings as string, n), 'utf8')) as Recording
            )
        )
        return httpPortFromRecordings({ recordings })
    }
    if (mode.live) return httpPortFromFetch(globalThis.fetch)
    return undefined
}
