// The sandbox layers of a runtime child (`grade --runtime`): Node's permission model (its flag and
// what the child may read), and how the child is kept off the network: a network namespace of its
// own where `unshare -rn` works, else Node's network permission, and the module doors always.

import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** The `unshare` binaries found to make a network namespace, by path (probed once per process). */
const namespaceProbes = new Map<string, boolean>()

/** `unshare` on PATH (Linux only), or null. */
export function findUnshare(): string | null {
    if (process.platform !== 'linux') return null
    for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
        const candidate = join(dir, 'unshare')
        if (dir.length > 0 && existsSync(candidate)) return candidate
    }
    return null
}

/**
 * Whether `unshare -rn` makes a network namespace here without privileges (a user namespace mapped
 * to the caller): tried once with this Node, as the child would be started.
 */
export function networkNamespaceWorks(unshare: string, nodePath: string): boolean {
    const key = `${unshare}\u0000${nodePath}`
    let works = namespaceProbes.get(key)
    if (works === undefined) {
        const probe = spawnSync(unshare, ['-rn', '--', nodePath, '-e', ''], {
            stdio: 'ignore',
            timeout: 10_000,
            windowsHide: true
        })
        works = probe.error === undefined && probe.status === 0
        namespaceProbes.set(key, works)
    }
    return works
}

/**
 * The isolation of a child, in every mode (live, its requests go through the parent): the module
 * doors always, under the strongest the platform adds: a network namespace (no interface but a
 * loopback that is down), or Node's own network permission (a permission model that restricts the
 * network, on a Node with `--allow-net`).
 */
export function chooseIsolation(input: {
    forced: 'auto' | 'module-doors'
    unshare: string | null
    nodePath: string
    hasFlag: (flag: string) => boolean
}): { isolation: string; unshare: string | null } {
    if (input.forced === 'module-doors') return { isolation: 'module-doors', unshare: null }
    if (input.unshare !== null && networkNamespaceWorks(input.unshare, input.nodePath))
        return { isolation: 'network-namespace+module-doors', unshare: input.unshare }
    if (input.hasFlag('--allow-net')) return { isolation: 'node-permission+module-doors', unshare: null }
    return { isolation: 'module-doors', unshare: null }
}

/**
 * The permission-model flag of a Node version: `--permission` from 23.5 and 22.13 (where it became
 * stable), `--experimental-permission` from 20.0, `null` before (no permission model).
 * @param version - e.g. `v20.20.2`
 */
export function permissionFlag(version: string): '--permission' | '--experimental-permission' | null {
    const m = /^v?(\d+)\.(\d+)/.exec(version)
    if (m === null) return null
    const major = Number(m[1])
    const minor = Number(m[2])
    if (major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)) return '--permission'
    if (major >= 20) return '--experimental-permission'
    return null
}

/**
 * The Node flags of a runtime child: the permission model with read access to `allowRead` only (no
 * `--allow-fs-write`, `--allow-child-process`, `--allow-worker`, `--allow-wasi`, and never
 * `--allow-net`: its requests go through the parent). `--allow-addons` only with `addons`: the child
 * of a schema that declares `requiredLibraries`, which the runtime loads from its allowlist and may be
 * native (talib); such code is outside the permission model, but not outside the network namespace.
 * @returns the flags, or `null` when this Node has no permission model (the child is then not started)
 */
export function childNodeArgs(input: {
    nodeVersion: string
    hasFlag: (flag: string) => boolean
    allowRead: readonly string[]
    addons?: boolean
}): string[] | null {
    const flag = permissionFlag(input.nodeVersion)
    if (flag === null) return null
    return [
        '--no-warnings',
        flag,
        ...input.allowRead.map((p) => `--allow-fs-read=${p}`),
        ...(input.addons === true && input.hasFlag('--allow-addons') ? ['--allow-addons'] : [])
    ]
}
