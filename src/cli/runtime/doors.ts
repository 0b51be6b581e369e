// The module doors to the network, closed inside the runtime child before any schema code loads
// (in every mode: live and under --recordings the network is the parent's, reached over the child's
// protocol channel). Node 20's permission model does not cover the network, so every
// builtin that can open a connection (TCP, UDP, TLS, HTTP(S), HTTP/2, DNS) is patched on its one
// shared exports object: a static or dynamic `import`, `require` through createRequire and
// `process.getBuiltinModule` all hand out that object, and `syncBuiltinESMExports` carries the
// patches to the ESM named exports. Where the platform gives more (a network namespace, Node's own
// network permission) this is the second layer, not the only one.

import { createRequire, syncBuiltinESMExports } from 'node:module'
import { requestOverParent, type ParentSend } from './http-shim.js'

/** The error a closed door throws: a handler that catches it still cannot connect. */
export class NetworkNotGranted extends Error {
    readonly code = 'ERR_NETWORK_NOT_GRANTED'
    constructor(door: string, mode: 'offline' | 'recordings' = 'recordings') {
        const how =
            mode === 'offline' ? 'offline; pass --live or --recordings' : 'offline and under --recordings; pass --live'
        super(`network not granted: ${door} is closed in the runtime child ${how} to grant it`)
        this.name = 'NetworkNotGranted'
    }
}

/** Called on every knock, before the door throws: the child attributes it to the running test. */
export type KnockListener = (door: string) => void

type Patchable = Record<string, unknown>

/** The functions of a DNS module (or its Resolver prototype) that ask a name server. */
const DNS_QUERY = /^(lookup|lookupService|resolve\w*|reverse)$/

/** The builtins whose functions are closed, each with the names to close on the module itself. */
const MODULE_DOORS: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['node:net', ['connect', 'createConnection']],
    ['node:tls', ['connect']],
    ['node:dgram', ['createSocket']],
    ['node:http', ['request', 'get']],
    ['node:https', ['request', 'get']],
    ['node:http2', ['connect']]
]

/** Prototype methods that open or accept a connection whatever module made the object. */
const PROTOTYPE_DOORS: ReadonlyArray<readonly [string, string, readonly string[]]> = [
    ['node:net', 'Socket', ['connect']],
    ['node:net', 'Server', ['listen']],
    ['node:dgram', 'Socket', ['bind', 'connect', 'send']]
]

/** Every closed door, so one reached twice (`dns.promises` is `node:dns/promises`) is left as it is. */
const closedDoors = new WeakSet<object>()

/** Replaces `holder[name]` with a closed door that cannot be written back or redefined. */
function close(holder: Patchable, name: string, door: string, knock: KnockListener): boolean {
    const current = holder[name]
    if (typeof current !== 'function' || closedDoors.has(current)) return false
    const closed = function closedDoor(): never {
        knock(door)
        throw new NetworkNotGranted(door)
    }
    closedDoors.add(closed)
    Object.defineProperty(holder, name, { value: closed, writable: false, configurable: false, enumerable: true })
    return true
}

/** Closes every DNS query function of one DNS module and of its `Resolver` class. */
function closeDns(mod: Patchable, label: string, knock: KnockListener): string[] {
    const names: string[] = []
    for (const name of Object.keys(mod))
        if (DNS_QUERY.test(name) && close(mod, name, `${label}.${name}`, knock)) names.push(`${label}.${name}`)
    const resolver = (mod.Resolver as { prototype?: Patchable } | undefined)?.prototype
    if (resolver !== undefined) {
        for (const name of Object.getOwnPropertyNames(resolver))
            if (DNS_QUERY.test(name) && close(resolver, name, `${label}.Resolver#${name}`, knock))
                names.push(`${label}.Resolver#${name}`)
    }
    return names
}

/** A global that opens connections (WebSocket, EventSource) where this Node has one. */
function closeGlobal(name: string, knock: KnockListener): boolean {
    const holder = globalThis as unknown as Patchable
    if (typeof holder[name] !== 'function') return false
    const door = `globalThis.${name}`
    Object.defineProperty(holder, name, {
        value: class ClosedDoor {
            constructor() {
                knock(door)
                throw new NetworkNotGranted(door)
            }
        },
        writable: false,
        configurable: false
    })
    return true
}

/**
 * Closes every module door to the network in this process: the connecting functions of
 * `node:net`, `node:tls`, `node:dgram`, `node:http`, `node:https`, `node:http2`, every DNS query
 * (`node:dns`, `node:dns/promises`, their `Resolver`), `net.Socket#connect` and `net.Server#listen`
 * (what http, https, http2, tls and undici reach in the end), `dgram.Socket#bind/connect/send`,
 * `process.binding` (the raw TCP/UDP handles) and the WebSocket and EventSource globals. `fetch` is
 * left to the caller (offline it knocks; live and under --recordings it goes to the parent). With
 * `parent`, `http(s).request` and `http(s).get` send through it instead of being closed (no socket
 * either way). Call it before any schema code loads; it cannot be undone in this process.
 * @returns the doors closed, named
 */
export function closeNetworkDoors(knock: KnockListener, parent: ParentSend | null = null): string[] {
    const require = createRequire(import.meta.url)
    const closed: string[] = []
    for (const [specifier, names] of MODULE_DOORS) {
        const mod = require(specifier) as Patchable
        // With a parent-owned network, HTTP(S) requests go to it: a request object, never a socket.
        if (parent !== null && (specifier === 'node:http' || specifier === 'node:https')) {
            const shim = requestOverParent(parent, specifier === 'node:http' ? 'http:' : 'https:')
            for (const name of ['request', 'get'] as const)
                Object.defineProperty(mod, name, {
                    value: shim[name],
                    writable: false,
                    configurable: false,
                    enumerable: true
                })
            continue
        }
        for (const name of names)
            if (close(mod, name, `${specifier}.${name}`, knock)) closed.push(`${specifier}.${name}`)
    }
    for (const [specifier, cls, names] of PROTOTYPE_DOORS) {
        const proto = ((require(specifier) as Patchable)[cls] as { prototype: Patchable }).prototype
        for (const name of names)
            if (close(proto, name, `${specifier}.${cls}#${name}`, knock)) closed.push(`${specifier}.${cls}#${name}`)
    }
    closed.push(...closeDns(require('node:dns') as Patchable, 'node:dns', knock))
    closed.push(...closeDns((require('node:dns') as Patchable).promises as Patchable, 'node:dns.promises', knock))
    closed.push(...closeDns(require('node:dns/promises') as Patchable, 'node:dns/promises', knock))
    for (const name of ['binding', '_linkedBinding'])
        if (close(process as unknown as Patchable, name, `process.${name}`, knock)) closed.push(`process.${name}`)
    for (const name of ['WebSocket', 'EventSource']) if (closeGlobal(name, knock)) closed.push(`globalThis.${name}`)
    // The ESM named exports of builtins are copies: this carries the patches to `import { connect } from 'node:net'`.
    syncBuiltinESMExports()
    return closed
}
