import { parseUrl } from './url.js'

/**
 * Host names that can never be the API as written (RFC 2606 / RFC 6761 reserved names, mDNS `.local`):
 * a schema with such a root relies on its handlers to pick the real host.
 */
const RESERVED_HOSTS: readonly RegExp[] = Object.freeze([
    /^localhost$/,
    /\.localhost$/,
    /\.local$/,
    /^example\.(?:com|net|org)$/,
    /\.example\.(?:com|net|org)$/,
    /(?:^|\.)example$/,
    /(?:^|\.)test$/,
    /(?:^|\.)invalid$/
])

/**
 * Why a `main.root` cannot be called as written, or `null` when it names a real host. Seen in
 * published schemas: `https://--infura-subdomain--.infura.io` (a `--label--` placeholder that a
 * handler fills), `https://...`, `https://localhost`, `https://x-rpc-resolver.local`.
 */
export function placeholderRootReason(root: unknown): string | null {
    if (typeof root !== 'string') return null
    const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(root.trim())
    if (m === null) return null
    const host = (m[1] as string).replace(/^[^@]*@/, '').replace(/:\d*$/, '')
    if (/\{\{[^{}]*\}\}/.test(host)) return 'the host holds a {{…}} placeholder'
    if (/^[.…]+$/.test(host)) return 'the host is elided'
    const url = parseUrl(root)
    if (url === null) return null
    const labels = url.host.split('.')
    if (labels.some((l) => l.startsWith('-') || l.endsWith('-') || (l.includes('--') && !l.startsWith('xn--'))))
        return 'the host holds a --placeholder-- label'
    const reserved = RESERVED_HOSTS.find((r) => r.test(url.host))
    if (reserved !== undefined) return `${url.host} is a reserved or local name`
    return null
}
