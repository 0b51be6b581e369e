import { readFileSync } from 'node:fs'

/** A v4 `main` fixture from test/fixtures/schemas/, parsed fresh on each call. */
export function schemaFixture(
    name:
        | 'etherscan-contracts'
        | 'nominatim-geocoding'
        | 'coingecko-simple'
        | 'facebook-key-mismatch'
        | 'broken-structure'
        | 'real-forms'
): Record<string, any> {
    return JSON.parse(readFileSync(new URL(`../fixtures/schemas/${name}.json`, import.meta.url), 'utf8')) as Record<
        string,
        any
    >
}

/** A schema module's source text from test/fixtures/schemas/. */
export function sourceFixture(name: string): string {
    return readFileSync(new URL(`../fixtures/schemas/${name}`, import.meta.url), 'utf8')
}
