/** A URL taken apart without the WHATWG `URL` class (the pure core has no DOM or Node types). */
export interface UrlParts {
    readonly scheme: string
    /** Lower-case host name, IPv6 without brackets. */
    readonly host: string
    readonly port: string | null
    readonly path: string
    readonly query: string | null
    readonly fragment: string | null
}

const URL_PATTERN = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\s]*)([^?#\s]*)(?:\?([^#\s]*))?(?:#(\S*))?$/i
const HOST_PATTERN = /^(?:\[[0-9a-f:.]+\]|[^\s:/?#[\]@]+)$/i

/** Splits an absolute URL (`scheme://[userinfo@]host[:port]/path?query#fragment`); `null` when it is not one. */
export function parseUrl(text: string): UrlParts | null {
    const m = URL_PATTERN.exec(text.trim())
    if (m === null) return null
    const authority = (m[2] as string).replace(/^[^@]*@/, '')
    const portMatch = /^(.*?)(?::(\d*))?$/.exec(authority)
    const hostPart = portMatch?.[1] ?? ''
    if (hostPart === '' || !HOST_PATTERN.test(hostPart) || hostPart.startsWith('.') || hostPart.includes('..'))
        return null
    return {
        scheme: (m[1] as string).toLowerCase(),
        host: hostPart
            .toLowerCase()
            .replace(/^\[|\]$/g, '')
            .replace(/\.$/, ''),
        port: portMatch?.[2] === undefined || portMatch[2] === '' ? null : portMatch[2],
        path: m[3] as string,
        query: m[4] ?? null,
        fragment: m[5] ?? null
    }
}
