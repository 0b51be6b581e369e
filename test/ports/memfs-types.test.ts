// Type tests: memfs's promises API and `createFsFromVolume(vol)`, which docs/guide.md names, are
// `fsPortFromNodeLike` input as they are, with no cast (issue 34). test/tsconfig.json compiles this
// file, so `npm run typecheck` fails when either stops fitting; the runs below check they work too.
import { createFsFromVolume, Volume } from 'memfs'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { fsPortFromNodeLike, type FsPort } from '../../src/index.js'

describe('fsPortFromNodeLike takes memfs without a cast', () => {
    it('vol.promises', async () => {
        const vol = new Volume()
        const port = fsPortFromNodeLike(vol.promises)
        expectTypeOf(port).toEqualTypeOf<FsPort>()
        expectTypeOf(vol.promises).toMatchTypeOf<Parameters<typeof fsPortFromNodeLike>[0]>()
        await port.mkdir('/island')
        await port.writeFile('/island/a.json', '{}')
        expect(await port.readFile('/island/a.json')).toBe('{}')
        expect(await port.readdir('/island')).toEqual([{ name: 'a.json', kind: 'file' }])
        expect(await port.stat('/island/a.json')).toMatchObject({ kind: 'file', size: 2 })
    })

    it('createFsFromVolume(vol)', async () => {
        const fs = createFsFromVolume(new Volume())
        const port = fsPortFromNodeLike(fs)
        expectTypeOf(fs).toMatchTypeOf<Parameters<typeof fsPortFromNodeLike>[0]>()
        await port.mkdir('/island/sub')
        await port.writeFile('/island/b.json', '[]')
        expect(await port.readFile('/island/b.json')).toBe('[]')
        expect((await port.readdir('/island'))?.map((e) => `${e.name}:${e.kind}`).sort()).toEqual([
            'b.json:file',
            'sub:directory'
        ])
        expect(await port.readFile('/island/missing.json')).toBeNull()
    })

    it('reads a bare name in a listing (a host that ignored withFileTypes) as kind other, never a throw', async () => {
        const port = fsPortFromNodeLike({ ...new Volume().promises, readdir: async () => ['x.json'] })
        expect(await port.readdir('/')).toEqual([{ name: 'x.json', kind: 'other' }])
    })
})
