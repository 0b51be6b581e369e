import { describe, expect, it } from 'vitest'
import { fsPortFromNodeLike, RebuildIndex, type NodeFsLike, type NodeFsPromisesLike } from '../../src/index.js'

const fail = (code: string) => Object.assign(new Error(code), { code })

/** A node:fs look-alike whose callback reads answer from a map; its promises API must not be used for reads. */
function fakeFs(files: Record<string, string>, failing: Record<string, string> = {}): NodeFsLike {
    const untouched = async () => {
        throw new Error('the promises API was used for a read')
    }
    return {
        promises: { readFile: untouched, readdir: untouched } as unknown as NodeFsPromisesLike,
        readFile(path, _encoding, callback) {
            if (failing[path] !== undefined) return callback(fail(failing[path] as string))
            const text = files[path]
            if (text === undefined) callback(fail('ENOENT'))
            else callback(null, text)
        },
        readdir(path, _options, callback) {
            if (failing[path] !== undefined) return callback(fail(failing[path] as string))
            const names = Object.keys(files)
                .filter((f) => f.startsWith(`${path}/`))
                .map((f) => f.slice(path.length + 1))
            if (names.length === 0) return callback(fail('ENOENT'))
            callback(
                null,
                names.map((name) => ({ name, isFile: () => true, isDirectory: () => false }))
            )
        }
    }
}

describe('fsPortFromNodeLike with node:fs (callback reads)', () => {
    it('reads files and folders through the callback API', async () => {
        const port = fsPortFromNodeLike(fakeFs({ '/a/x.json': '{}' }))
        expect(await port.readFile('/a/x.json')).toBe('{}')
        expect(await port.readdir('/a')).toEqual([{ name: 'x.json', kind: 'file' }])
    })

    it('maps ENOENT to null and rejects any other failure unchanged', async () => {
        const port = fsPortFromNodeLike(fakeFs({}, { '/locked.json': 'EACCES', '/locked': 'EACCES' }))
        expect(await port.readFile('/missing.json')).toBeNull()
        expect(await port.readdir('/missing')).toBeNull()
        await expect(port.readFile('/locked.json')).rejects.toMatchObject({ code: 'EACCES' })
        await expect(port.readdir('/locked')).rejects.toMatchObject({ code: 'EACCES' })
    })
})

describe('fsPortFromNodeLike given a host object it cannot read', () => {
    const trap = (): never => {
        throw new Error('x')
    }
    const hostile: ReadonlyArray<[string, () => unknown]> = [
        ['a Proxy whose every read throws', () => new Proxy({}, { get: trap })],
        [
            'a throwing getter for readFile',
            () => Object.defineProperty({ promises: {}, readdir: () => undefined }, 'readFile', { get: trap })
        ],
        ['a throwing getter for promises', () => Object.defineProperty({}, 'promises', { get: trap })]
    ]

    it.each(hostile)(
        'does not throw for %s, and every call rejects with INT-002 (threw from the getter)',
        async (_name, make) => {
            const port = fsPortFromNodeLike(make() as NodeFsLike)
            const calls = [
                port.readFile('/a'),
                port.writeFile('/a', ''),
                port.mkdir('/a'),
                port.readdir('/a'),
                port.stat('/a'),
                port.lstat('/a'),
                port.link('/a', '/b'),
                port.rename('/a', '/b'),
                port.rm('/a')
            ]
            for (const call of calls)
                await expect(call).rejects.toMatchObject({
                    code: 'INT-002',
                    message: 'The input of fsPortFromNodeLike could not be read: Error: x'
                })
        }
    )

    it('surfaces the unreadable host as FS-001 naming INT-002 through the library', async () => {
        const port = fsPortFromNodeLike(new Proxy({}, { get: trap }) as NodeFsLike)
        const res = await RebuildIndex.rebuildNamespaceIndex({
            fs: port,
            namespaceDir: '/island/providers/ns',
            now: '2026-01-01T00:00:00Z'
        })
        expect(res.status).toBe(false)
        expect(res.errors[0]).toMatchObject({ code: 'FS-001' })
        expect(res.errors[0]?.message).toContain('The input of fsPortFromNodeLike could not be read')
    })
})
